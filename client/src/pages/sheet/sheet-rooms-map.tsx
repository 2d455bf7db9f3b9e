import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { sheetGeometry } from './sheet-geometry';
import { createSheetMap, type SheetMap } from './sheet-map';
import { drawSnagPins, type SnagPin } from '../../components/snags/sheet-snag-pins';
import '../projects/projects.css';

/**
 * A sheet with the rooms of visits on it (Leaflet, CRS.Simple). The viewer
 * shows where one stands and which way one looks; the placement editor lets
 * rooms be dragged (or dropped where the sheet is clicked); the compare
 * screen marks the two rooms side by side. Loaded lazily with Leaflet.
 */

export interface SheetForMap {
  name: string;
  width: number | null;
  height: number | null;
  tile_size: number | null;
  max_zoom: number | null;
  min_zoom?: number;
  tile_url_template: string | null;
}

export interface RoomOnSheet {
  id: number;
  name: string;
  x: number | null;
  y: number | null;
  heading: number | null;
  /** A short mark on the dot (its number in the visit). */
  mark?: string;
  /** 'a' / 'b' on the compare screen, to tell the two visits apart. */
  tone?: 'a' | 'b';
}

export interface SheetRoomsHandle {
  /** The centre of the view in sheet pixels (to place a room with the keyboard). */
  centre(): { x: number; y: number } | null;
}

interface Props {
  sheet: SheetForMap;
  rooms: RoomOnSheet[];
  currentRoomId?: number | null;
  /** Yaw (radians) the current room is looked at, for the view cone. */
  yaw?: number | null;
  onSelect?(id: number): void;
  /** Rooms may be dragged; a drop reports the new place in sheet pixels. */
  onMove?(id: number, x: number, y: number): void;
  /** A click on the plan itself (not on a room), in sheet pixels. */
  onSheetClick?(x: number, y: number): void;
  className?: string;
  label: string;
  zoomControl?: boolean;
  handleRef?: Ref<SheetRoomsHandle>;
  /** Snags pinned on the sheet, in their status colours. */
  snagPins?: SnagPin[];
  onSnagSelect?(id: number): void;
}

const CONE_HALF_ANGLE = Math.PI / 6;

export default function SheetRoomsMap({ sheet, rooms, currentRoomId, yaw, onSelect, onMove, onSheetClick, className, label, zoomControl, handleRef, snagPins, onSnagSelect }: Props) {
  const { t, i18n } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const sheetMap = useRef<SheetMap | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const cone = useRef<L.Polygon | null>(null);
  const snagLayer = useRef<L.LayerGroup | null>(null);
  const handlers = useRef({ onSelect, onMove, onSheetClick, onSnagSelect });
  handlers.current = { onSelect, onMove, onSheetClick, onSnagSelect };
  const rtl = i18n.dir() === 'rtl';
  const g = sheetGeometry({ status: 'ready', ...sheet, min_zoom: sheet.min_zoom ?? 0 });

  useImperativeHandle(handleRef, () => ({
    centre: () => (sheetMap.current ? sheetMap.current.toPixels(sheetMap.current.map.getCenter()) : null),
  }));

  useEffect(() => {
    if (!el.current || !g) return;
    const sm = createSheetMap(el.current, g, { rtl, zoomInTitle: t('Zoom in'), zoomOutTitle: t('Zoom out'), zoomControl });
    sheetMap.current = sm;
    layer.current = L.layerGroup().addTo(sm.map);
    snagLayer.current = L.layerGroup().addTo(sm.map);
    sm.map.on('click', (e: L.LeafletMouseEvent) => {
      if (!handlers.current.onSheetClick || !sm.bounds.contains(e.latlng)) return;
      const p = sm.toPixels(e.latlng);
      handlers.current.onSheetClick(Math.round(p.x), Math.round(p.y));
    });
    return () => {
      sm.map.remove();
      sheetMap.current = null;
      layer.current = null;
      snagLayer.current = null;
      cone.current = null;
    };
    // The geometry is fixed for one sheet.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [g?.template, g?.width, g?.height, rtl, t, zoomControl]);

  // The room dots.
  useEffect(() => {
    const sm = sheetMap.current;
    const group = layer.current;
    if (!sm || !group) return;
    group.clearLayers();
    for (const r of rooms) {
      if (r.x === null || r.y === null) continue;
      const current = r.id === currentRoomId;
      const icon = L.divIcon({
        className: `sw-room-dot${current ? ' is-current' : ''}${r.tone ? ` tone-${r.tone}` : ''}`,
        html: `<span data-testid="sheet-room" data-room="${r.id}"${current ? ' data-current="true"' : ''}>${escapeHtml(r.mark ?? '')}</span>`,
        iconSize: current ? [30, 30] : [24, 24],
      });
      const marker = L.marker(sm.toLatLng(r.x, r.y), { icon, title: r.name, alt: r.name, keyboard: true, draggable: !!handlers.current.onMove, zIndexOffset: current ? 1000 : 0 });
      marker.on('click', () => handlers.current.onSelect?.(r.id));
      marker.on('dragend', () => {
        const p = sm.toPixels(marker.getLatLng());
        handlers.current.onMove?.(r.id, Math.round(p.x), Math.round(p.y));
      });
      // The icon exists once the map has a view; name it for screen readers then.
      marker.on('add', () => {
        const dom = marker.getElement();
        if (!dom) return;
        dom.setAttribute('role', 'button');
        dom.setAttribute('aria-label', r.name);
        if (current) dom.setAttribute('aria-current', 'true');
      });
      marker.addTo(group);
    }
  }, [rooms, currentRoomId, g?.template]);

  // The snag pins, above the rooms.
  useEffect(() => {
    const sm = sheetMap.current;
    if (!sm || !snagLayer.current) return;
    drawSnagPins(snagLayer.current, snagPins ?? [], sm.toLatLng, (id) => handlers.current.onSnagSelect?.(id));
  }, [snagPins, g?.template]);

  // The view cone of the current room: heading + yaw, clockwise from the sheet's up.
  useEffect(() => {
    const sm = sheetMap.current;
    if (!sm || !g) return;
    const room = rooms.find((r) => r.id === currentRoomId);
    if (!room || room.x === null || room.y === null || yaw === null || yaw === undefined) {
      cone.current?.remove();
      cone.current = null;
      return;
    }
    const dir = (room.heading ?? 0) + yaw;
    const radius = Math.max(g.width, g.height) * 0.05;
    const at = (a: number) => sm.toLatLng(room.x! + Math.sin(a) * radius, room.y! - Math.cos(a) * radius);
    const points = [sm.toLatLng(room.x, room.y), at(dir - CONE_HALF_ANGLE), at(dir), at(dir + CONE_HALF_ANGLE)];
    if (cone.current) cone.current.setLatLngs(points);
    else cone.current = L.polygon(points, { className: 'sw-view-cone', interactive: false, weight: 1 }).addTo(sm.map);
  }, [rooms, currentRoomId, yaw, g]);

  if (!g) return null;
  return (
    <div className={`sw-sheet-viewer sw-sheet-rooms ${className ?? ''}`} dir="ltr">
      <div ref={el} className="h-100" role="application" aria-roledescription={t('zoomable plan')} aria-label={label} data-testid="sheet-rooms-map" />
    </div>
  );
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
