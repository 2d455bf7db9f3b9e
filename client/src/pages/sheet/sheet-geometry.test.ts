import { describe, expect, it } from 'vitest';
import { sheetGeometry } from './sheet-geometry';

const ready = {
  status: 'ready' as const,
  tile_url_template: '/api/files/x/tiles/{z}/{y}/{x}.jpg?sig=1',
  width: 7016,
  height: 4961,
  tile_size: 256,
  max_zoom: 5,
  min_zoom: 0,
};

describe('the sheet viewer geometry', () => {
  it('places the full image at the deepest zoom and allows two levels beyond it and below zoom 0', () => {
    expect(sheetGeometry(ready)).toEqual({
      template: ready.tile_url_template,
      width: 7016,
      height: 4961,
      tileSize: 256,
      nativeZoom: 5,
      minZoom: -2,
      maxZoom: 7,
    });
  });

  it('has nothing to show until the sheet is drawn', () => {
    expect(sheetGeometry({ ...ready, status: 'processing' })).toBeNull();
    expect(sheetGeometry({ ...ready, tile_url_template: null })).toBeNull();
    expect(sheetGeometry({ ...ready, max_zoom: null })).toBeNull();
  });
});
