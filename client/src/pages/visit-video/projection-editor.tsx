import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import 'leaflet/dist/leaflet.css';
import type { SheetDetail, VideoPosition } from '@sitewalk/proto';
import { sheetGeometry } from '../sheet/sheet-geometry';
import { createSheetMap, type Sheet } from '../sheet/sheet-map';
import {
  apply,
  dragAngle,
  dragFactor,
  mirrorAbout,
  overlayCentre,
  rotateAbout,
  scaleAbout,
  toMatrix,
  translate,
  type Point,
  type Similarity,
} from '../../lib/projection-transform';
import '../projects/projects.css';

export type EditorTool = 'pan' | 'move' | 'rotate' | 'scale' | 'points';

interface Props {
  sheet: SheetDetail;
  /** The server's proposal, sheet pixels, in walking order. */
  positions: VideoPosition[];
  /** The proposal's picture (points and walk), laid over the sheet's bounds. */
  previewUrl: string | null;
  /** The adjustment on top of the proposal (sheet pixels → sheet pixels). */
  value: Similarity;
  onChange(t: Similarity): void;
  tool: EditorTool;
  /** Two-point fit: the clicks so far (0, 1 or 2 points on the sheet). */
  picks: Point[];
  onPick(p: Point): void;
  label: string;
  /** Keyframes whose place SiteWalk cannot vouch for: drawn in orange. */
  unsure?: ReadonlySet<number>;
  /** The keyframe where one more control point is asked for: drawn with a ring. */
  target?: number | null;
}

/** Sheet pixels → the map's container pixels: an affine map (CRS.Simple), found from two points. */
function sheetToScreen(sm: Sheet) {
  const o = sm.map.latLngToContainerPoint(sm.toLatLng(0, 0));
  const u = sm.map.latLngToContainerPoint(sm.toLatLng(1000, 0));
  const k = (u.x - o.x) / 1000;
  return { k, ox: o.x, oy: o.y, to: (p: Point) => ({ x: o.x + p.x * k, y: o.y + p.y * k }), from: (x: number, y: number) => ({ x: (x - o.x) / k, y: (y - o.y) / k }) };
}

/**
 * The projection editor: the sheet (the shared Leaflet sheet map) with the
 * walk laid over it — the server's preview picture of the points and path,
 * the path itself and one numbered dot per future room, start in green, end
 * in red. The overlay is dragged, turned and scaled with the chosen tool, or
 * with the keyboard (arrows move, [ and ] turn, + and − scale), or fitted to
 * where the walk started and ended (two clicks). Loaded lazily with Leaflet.
 */
export default function ProjectionEditor({ sheet, positions, previewUrl, value, onChange, tool, picks, onPick, label, unsure, target = null }: Props) {
  const { t, i18n } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const sheetMap = useRef<Sheet | null>(null);
  const image = useRef<HTMLImageElement | null>(null);
  const [, setFrame] = useState(0);
  const props = useRef({ value, onChange, positions, tool, picks, onPick, unsure, target });
  props.current = { value, onChange, positions, tool, picks, onPick, unsure, target };
  const drag = useRef<{ id: number; from: Point; start: Similarity; pivot: Point } | null>(null);
  const rtl = i18n.dir() === 'rtl';
  const g = sheetGeometry(sheet);

  const draw = () => {
    const sm = sheetMap.current;
    const c = canvas.current;
    if (!sm || !c) return;
    const w = c.clientWidth;
    const h = c.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height);
    const s = sheetToScreen(sm);
    // Where the sheet sits on screen, for tests that click a known spot of the plan.
    c.dataset.view = `${s.k} ${s.ox} ${s.oy}`;
    const { value: adj, positions: pos, picks: clicks, unsure: doubtful, target: asked } = props.current;
    // The preview picture, through the adjustment.
    const img = image.current;
    if (img?.complete && img.naturalWidth && sheet.width && sheet.height) {
      ctx.setTransform(dpr * s.k, 0, 0, dpr * s.k, dpr * s.ox, dpr * s.oy);
      ctx.transform(...toMatrix(adj));
      ctx.globalAlpha = 0.9;
      ctx.drawImage(img, 0, 0, sheet.width, sheet.height);
      ctx.globalAlpha = 1;
    }
    // Path and dots in screen pixels, so they keep their size at every zoom.
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const screen = pos.map((p) => s.to(apply(adj, p)));
    if (screen.length > 1) {
      ctx.beginPath();
      screen.forEach((p, i) => (i ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y)));
      ctx.strokeStyle = '#0d6efd';
      ctx.lineWidth = 2;
      ctx.stroke();
    }
    screen.forEach((p, i) => {
      const end = i === 0 || i === screen.length - 1;
      const unsure = doubtful?.has(pos[i].keyframe) ?? false;
      ctx.beginPath();
      ctx.arc(p.x, p.y, end ? 7 : unsure ? 5.5 : 4.5, 0, Math.PI * 2);
      ctx.fillStyle = i === 0 ? '#198754' : i === screen.length - 1 ? '#dc3545' : unsure ? '#fd7e14' : '#0d6efd';
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = '#fff';
      ctx.stroke();
    });
    // The room where one more control point is asked for: a double ring (dark and light) that shows on any plan.
    const at = asked === null || asked === undefined ? -1 : pos.findIndex((q) => q.keyframe === asked);
    if (at >= 0) {
      const q = screen[at];
      for (const [r, colour, width] of [[14, '#000', 4], [14, '#fd7e14', 2.5], [19, '#fff', 2]] as const) {
        ctx.beginPath();
        ctx.arc(q.x, q.y, r, 0, Math.PI * 2);
        ctx.lineWidth = width;
        ctx.strokeStyle = colour;
        ctx.stroke();
      }
      c.dataset.target = `${Math.round(q.x)} ${Math.round(q.y)}`;
    } else delete c.dataset.target;
    // The clicked start and end.
    clicks.forEach((p, i) => {
      const q = s.to(p);
      ctx.beginPath();
      ctx.moveTo(q.x - 9, q.y);
      ctx.lineTo(q.x + 9, q.y);
      ctx.moveTo(q.x, q.y - 9);
      ctx.lineTo(q.x, q.y + 9);
      ctx.lineWidth = 3;
      ctx.strokeStyle = i === 0 ? '#198754' : '#dc3545';
      ctx.stroke();
    });
  };
  const drawRef = useRef(draw);
  drawRef.current = draw;

  useEffect(() => {
    if (!el.current || !g) return;
    const sm = createSheetMap(el.current, g, { rtl, zoomInTitle: t('Zoom in'), zoomOutTitle: t('Zoom out') });
    sheetMap.current = sm;
    const redraw = () => drawRef.current();
    sm.map.on('move zoom resize viewreset zoomanim', redraw);
    const observer = new ResizeObserver(() => {
      sm.map.invalidateSize();
      redraw();
    });
    observer.observe(el.current);
    redraw();
    return () => {
      observer.disconnect();
      sm.map.remove();
      sheetMap.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [g?.template, g?.width, g?.height, rtl, t]);

  useEffect(() => {
    if (!previewUrl) {
      image.current = null;
      return;
    }
    const img = new Image();
    img.onload = () => {
      image.current = img;
      setFrame((f) => f + 1);
    };
    img.src = previewUrl;
    return () => {
      img.onload = null;
    };
  }, [previewUrl]);

  useEffect(() => draw());

  // The map pans only with the hand tool; the others work the overlay.
  useEffect(() => {
    const map = sheetMap.current?.map;
    if (!map) return;
    if (tool === 'pan') map.dragging.enable();
    else map.dragging.disable();
  }, [tool]);

  const sheetPoint = (e: PointerEvent<HTMLCanvasElement>): Point | null => {
    const sm = sheetMap.current;
    if (!sm) return null;
    const r = e.currentTarget.getBoundingClientRect();
    return sheetToScreen(sm).from(e.clientX - r.left, e.clientY - r.top);
  };

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    const p = sheetPoint(e);
    if (!p || tool === 'pan') return;
    e.preventDefault();
    if (tool === 'points') {
      onPick({ x: Math.round(p.x), y: Math.round(p.y) });
      return;
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { id: e.pointerId, from: p, start: value, pivot: overlayCentre(value, positions) };
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const p = sheetPoint(e);
    if (!p) return;
    if (tool === 'move') onChange(translate(d.start, p.x - d.from.x, p.y - d.from.y));
    else if (tool === 'rotate') onChange(rotateAbout(d.start, dragAngle(d.pivot, d.from, p), d.pivot));
    else if (tool === 'scale') onChange(scaleAbout(d.start, dragFactor(d.pivot, d.from, p), d.pivot));
  };
  const onPointerUp = (e: PointerEvent<HTMLCanvasElement>) => {
    if (drag.current?.id === e.pointerId) drag.current = null;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const sm = sheetMap.current;
    if (!sm) return;
    if (tool === 'points' && (e.key === 'Enter' || e.key === ' ')) {
      // Without a pointer: the point of the sheet in the middle of the view (pan the sheet to bring it there).
      e.preventDefault();
      const p = sheetToScreen(sm).from(e.currentTarget.clientWidth / 2, e.currentTarget.clientHeight / 2);
      onPick({ x: Math.round(p.x), y: Math.round(p.y) });
      return;
    }
    const k = sheetToScreen(sm).k;
    const step = (e.shiftKey ? 50 : 10) / k;
    const pivot = overlayCentre(value, positions);
    const deg = (e.shiftKey ? 10 : 1) * (Math.PI / 180);
    const factor = e.shiftKey ? 1.1 : 1.02;
    const next: Record<string, () => Similarity> = {
      ArrowLeft: () => translate(value, -step, 0),
      ArrowRight: () => translate(value, step, 0),
      ArrowUp: () => translate(value, 0, -step),
      ArrowDown: () => translate(value, 0, step),
      '[': () => rotateAbout(value, -deg, pivot),
      ']': () => rotateAbout(value, deg, pivot),
      '+': () => scaleAbout(value, factor, pivot),
      '=': () => scaleAbout(value, factor, pivot),
      '-': () => scaleAbout(value, 1 / factor, pivot),
      m: () => mirrorAbout(value, pivot),
    };
    const f = next[e.key];
    if (!f) return;
    e.preventDefault();
    e.stopPropagation();
    onChange(f());
  };

  if (!g) return null;
  return (
    <div className="sw-sheet-viewer sw-projection-editor shadow-sm" dir="ltr" data-tool={tool}>
      <div ref={el} className="h-100" data-testid="projection-map" />
      <canvas
        ref={canvas}
        className="sw-projection-canvas"
        tabIndex={0}
        role="application"
        aria-roledescription={t('walk overlay')}
        aria-label={`${label}. ${t('Arrow keys move the walk, [ and ] turn it, + and − scale it, M mirrors it; hold Shift for bigger steps.')}`}
        data-testid="projection-overlay"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}

