import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { MapDetail } from '@sitewalk/proto';
import { sheetGeometry } from './sheet-geometry';

/**
 * The zoomable plan: Leaflet with CRS.Simple over the sheet's tile pyramid
 * (SPEC §1, sheets.ts). Loaded only on the sheet screen, so Leaflet stays out
 * of every other screen's JavaScript. Later features add rooms and snags as
 * layers on this map.
 */
export default function SheetViewer({ sheet }: { sheet: MapDetail }) {
  const { t, i18n } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const boundsRef = useRef<L.LatLngBounds | null>(null);
  const rtl = i18n.dir() === 'rtl';

  useEffect(() => {
    const g = sheetGeometry(sheet);
    if (!el.current || !g) return;
    const map = L.map(el.current, {
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
      keyboard: true,
    });
    L.control
      .zoom({ position: rtl ? 'topright' : 'topleft', zoomInTitle: t('Zoom in'), zoomOutTitle: t('Zoom out'), zoomInText: '+', zoomOutText: '−' })
      .addTo(map);
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
    mapRef.current = map;
    boundsRef.current = bounds;
    return () => {
      map.remove();
      mapRef.current = null;
    };
  }, [sheet, rtl, t]);

  return (
    <div>
      <div className="d-flex justify-content-end mb-2">
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => boundsRef.current && mapRef.current?.fitBounds(boundsRef.current)}>
          <i className="bi bi-arrows-fullscreen me-1" aria-hidden="true" />
          {t('Fit to screen')}
        </button>
      </div>
      {/* Leaflet lays out its panes left to right whatever the page direction. */}
      <div className="sw-sheet-viewer shadow-sm" dir="ltr">
        <div
          ref={el}
          className="h-100"
          role="application"
          aria-roledescription={t('zoomable plan')}
          aria-label={t('Plan of {name}. Use the arrow keys to move and the plus and minus keys to zoom.', { name: sheet.name })}
          data-testid="sheet-map"
        />
      </div>
    </div>
  );
}
