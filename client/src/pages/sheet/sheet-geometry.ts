import type { SheetDetail } from '@sitewalk/proto';

/**
 * How a sheet's tile pyramid sits in Leaflet's CRS.Simple (contract in
 * proto sheets.ts): the full image is width × height pixels at `nativeZoom`,
 * zoom 0 is one tile holding all of it. The viewer lets people zoom two
 * levels past the sharpest tiles (to read small print) and out to a quarter
 * of zoom 0 (small screens). Pure, unit-tested.
 */
export interface SheetGeometry {
  template: string;
  width: number;
  height: number;
  tileSize: number;
  nativeZoom: number;
  minZoom: number;
  maxZoom: number;
}

export const OVERZOOM_LEVELS = 2;
export const UNDERZOOM_LEVELS = 2;

/** null while the sheet has no tiles (still being drawn, or an empty sheet). */
export function sheetGeometry(s: Pick<SheetDetail, 'status' | 'tile_url_template' | 'width' | 'height' | 'tile_size' | 'max_zoom' | 'min_zoom'>): SheetGeometry | null {
  if (s.status !== 'ready' || !s.tile_url_template || !s.width || !s.height || !s.tile_size || s.max_zoom === null) return null;
  return {
    template: s.tile_url_template,
    width: s.width,
    height: s.height,
    tileSize: s.tile_size,
    nativeZoom: s.max_zoom,
    minZoom: (s.min_zoom ?? 0) - UNDERZOOM_LEVELS,
    maxZoom: s.max_zoom + OVERZOOM_LEVELS,
  };
}
