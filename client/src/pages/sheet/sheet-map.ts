import L from 'leaflet';
import type { SheetGeometry } from './sheet-geometry';

/**
 * A Leaflet map of one sheet (CRS.Simple over its tile pyramid, contract in
 * proto sheets.ts): the plan, a mask over everything outside it and a thin
 * edge. Shared by the sheet screen, the room placement editor, the viewer's
 * floor sheet and the compare screen.
 */
export interface Sheet {
  map: L.Map;
  bounds: L.LatLngBounds;
  /** Sheet pixels (origin top-left, full resolution) → map position. */
  toLatLng(x: number, y: number): L.LatLng;
  /** Map position → sheet pixels. */
  toPixels(latlng: L.LatLng): { x: number; y: number };
}

export function createSheetMap(
  el: HTMLElement,
  g: SheetGeometry,
  opts: { rtl: boolean; zoomInTitle: string; zoomOutTitle: string; zoomControl?: boolean; keyboard?: boolean },
): Sheet {
  const map = L.map(el, {
    crs: L.CRS.Simple,
    minZoom: g.minZoom,
    maxZoom: g.maxZoom,
    // Whole zoom levels only. Between them Chromium draws the scaled tiles with
    // hairline seams (Leaflet issue 3575) that would read as breaks in the walls
    // of a plan; at whole levels tiles sit on whole pixels, sharp and seamless.
    zoomSnap: 1,
    zoomDelta: 1,
    attributionControl: false,
    zoomControl: false,
    keyboard: opts.keyboard ?? true,
  });
  if (opts.zoomControl !== false) {
    L.control
      .zoom({ position: opts.rtl ? 'topright' : 'topleft', zoomInTitle: opts.zoomInTitle, zoomOutTitle: opts.zoomOutTitle, zoomInText: '+', zoomOutText: '−' })
      .addTo(map);
  }
  const bounds = L.latLngBounds(map.unproject([0, g.height], g.nativeZoom), map.unproject([g.width, 0], g.nativeZoom));
  L.tileLayer(g.template, {
    tileSize: g.tileSize,
    minNativeZoom: 0,
    maxNativeZoom: g.nativeZoom,
    minZoom: g.minZoom,
    maxZoom: g.maxZoom,
    noWrap: true,
    bounds,
  }).addTo(map);
  // Edge tiles are padded to full size; everything outside the plan is covered
  // in the viewer's background, and the plan gets a thin edge, so the sheet
  // shows exactly its own size.
  const world = bounds.pad(64);
  const ring = (b: L.LatLngBounds) => [b.getSouthWest(), b.getNorthWest(), b.getNorthEast(), b.getSouthEast()];
  L.polygon([ring(world), ring(bounds)], { className: 'sw-sheet-mask', stroke: false, fillOpacity: 1, interactive: false }).addTo(map);
  L.rectangle(bounds, { className: 'sw-sheet-edge', fill: false, weight: 1, interactive: false }).addTo(map);
  map.fitBounds(bounds);
  map.setMaxBounds(bounds.pad(0.25));
  return {
    map,
    bounds,
    toLatLng: (x, y) => map.unproject([x, y], g.nativeZoom),
    toPixels: (latlng) => {
      const p = map.project(latlng, g.nativeZoom);
      return { x: p.x, y: p.y };
    },
  };
}
