/**
 * The viewer bench's reference (bench/viewer-perf.ts): Photo Sphere Viewer
 * alone on a blank page, the way its documentation sets up a tiled
 * panorama — no app, no React, no router — showing the same room with the
 * same settings as SiteWalk's viewer. The page asks GET /api/viewer-visit
 * for the room, then creates the viewer. Measured in the same run as the
 * app, so the ratio of the two holds on a busy machine too.
 */
import { Viewer } from '@photo-sphere-viewer/core';
import { EquirectangularTilesAdapter } from '@photo-sphere-viewer/equirectangular-tiles-adapter';
import '@photo-sphere-viewer/core/index.css';

interface Answer {
  data: { rooms: { panorama: { base_url: string; tile_url_template: string; levels: { width: number; cols: number; rows: number }[] } }[] };
}

const code = new URLSearchParams(window.location.search).get('code') ?? '';
const answer = (await (await fetch(`/api/viewer-visit?code=${encodeURIComponent(code)}`)).json()) as Answer;
const p = answer.data.rooms[0]!.panorama;
const viewer = new Viewer({
  container: 'viewer',
  adapter: EquirectangularTilesAdapter.withConfig({ baseBlur: false }),
  panorama: {
    baseUrl: p.base_url,
    levels: p.levels,
    tileUrl: (col: number, row: number, level: number) => p.tile_url_template.replace('{level}', String(level)).replace('{col}', String(col)).replace('{row}', String(row)),
  },
  navbar: ['zoom', 'move', 'caption', 'fullscreen'],
  loadingTxt: '',
});
viewer.addEventListener('panorama-loaded', () => performance.mark('sw-pano-base'));
