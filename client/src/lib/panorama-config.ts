import type { RoomPanorama } from '@sitewalk/proto';

/**
 * A ready room's panorama (contract in proto visits.ts) as Photo Sphere
 * Viewer's EquirectangularTilesAdapter reads it: the low-resolution whole
 * sphere first (base_url), then the tiles of the level the zoom needs. Pure.
 */
export interface TilesPanorama {
  baseUrl: string;
  levels: { width: number; cols: number; rows: number }[];
  tileUrl: (col: number, row: number, level: number) => string;
}

export function tilesPanorama(p: RoomPanorama): TilesPanorama {
  const template = p.tile_url_template;
  return {
    baseUrl: p.base_url,
    // PSV 5.15 picks the level from the screen size itself; zoomRange is no longer read.
    levels: p.levels.map((l) => ({ width: l.width, cols: l.cols, rows: l.rows })),
    tileUrl: (col, row, level) => template.replace('{level}', String(level)).replace('{col}', String(col)).replace('{row}', String(row)),
  };
}
