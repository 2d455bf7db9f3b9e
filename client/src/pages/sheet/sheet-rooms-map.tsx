import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
// The plugin extends the global L that Leaflet sets; its own CSS only animates (the look is ours, in projects.css).
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import { sheetGeometry } from './sheet-geometry';
import { createSheetMap, type Sheet } from './sheet-map';
import { drawSnagPins, type SnagPin } from '../../components/snags/sheet-snag-pins';
import { headingDegrees, roomDotLabel, walkLines } from '../../lib/walk-path';
import { formatNumber } from '../../lib/format';
import '../projects/projects.css';

/**
 * A sheet with the rooms of visits on it (Leaflet, CRS.Simple). The viewer
 * shows where one stands and which way one looks; the placement editor lets
 * rooms be dragged (or dropped where the sheet is clicked); the compare
 * screen marks the two rooms side by side. Loaded lazily with Leaflet.
 *
 * A walk of many rooms (a video makes dozens) is a path line with a small
 * dot per room; dots close together at the current zoom merge into a
 * counted cluster that zooms in when chosen. The current room merges like
 * any other (a dot left out would lie on its neighbours and hide them), and
 * a mark that is not a target shows where it is and its heading above all.
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
/**
 * Dots closer than this (screen pixels) merge. Wide enough that what stays
 * apart keeps its 24 px target clear of the next (WCAG 2.2 target size): a
 * dot's 24 px beside a cluster's 32 px.
 */
const CLUSTER_RADIUS = 40;

/**
 * A cluster drawn on its first room instead of the rooms' average place. The
 * plugin gathers every room within CLUSTER_RADIUS of that first room, so drawn
 * there it stays that far from every dot and cluster outside it; drawn at the
 * average it could move onto a neighbour's dot (two targets on each other).
 * The average still weighs the clusters that contain it at lower zooms.
 */
const AnchoredCluster = (L.MarkerCluster as unknown as { extend(props: object): unknown }).extend({
  _recalculateBounds(this: { _cLatLng?: L.LatLng; _latlng: L.LatLng }) {
    (L.MarkerCluster.prototype as unknown as { _recalculateBounds(): void })._recalculateBounds.call(this);
    if (this._cLatLng) this._latlng = this._cLatLng;
  },
});

/** A divIcon whose element carries an accessible name and test attributes (Leaflet gives only role and tabindex). */
class NamedDivIcon extends L.DivIcon {
  constructor(
    options: L.DivIconOptions,
    private readonly attrs: Record<string, string>,
  ) {
    super(options);
  }

  override createIcon(old?: HTMLElement): HTMLElement {
    const el = super.createIcon(old);
    for (const [k, v] of Object.entries(this.attrs)) el.setAttribute(k, v);
    return el;
  }
}

const isActivation = (e: L.LeafletEvent) => {
  const key = (e as L.LeafletKeyboardEvent).originalEvent?.key;
  return key === 'Enter' || key === ' ';
};

export default function SheetRoomsMap({ sheet, rooms, currentRoomId, yaw, onSelect, onMove, onSheetClick, className, label, zoomControl, handleRef, snagPins, onSnagSelect }: Props) {
  const { t, i18n } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const sheetMap = useRef<Sheet | null>(null);
  const layer = useRef<L.MarkerClusterGroup | null>(null);
  const currentLayer = useRef<L.LayerGroup | null>(null);
  const pathLayer = useRef<L.LayerGroup | null>(null);
  const cone = useRef<L.Polygon | null>(null);
  const snagLayer = useRef<L.LayerGroup | null>(null);
  const handlers = useRef({ onSelect, onMove, onSheetClick, onSnagSelect });
  handlers.current = { onSelect, onMove, onSheetClick, onSnagSelect };
  const rtl = i18n.dir() === 'rtl';
  // Counts the maps made for this sheet: a new map (a language switch, a translation loaded late) starts empty,
  // so what is drawn on it is drawn again.
  const [mapVersion, setMapVersion] = useState(0);
  const g = sheetGeometry({ status: 'ready', ...sheet, min_zoom: sheet.min_zoom ?? 0 });

  useImperativeHandle(handleRef, () => ({
    centre: () => (sheetMap.current ? sheetMap.current.toPixels(sheetMap.current.map.getCenter()) : null),
  }));

  useEffect(() => {
    if (!el.current || !g) return;
    const sm = createSheetMap(el.current, g, { rtl, zoomInTitle: t('Zoom in'), zoomOutTitle: t('Zoom out'), zoomControl });
    sheetMap.current = sm;
    pathLayer.current = L.layerGroup().addTo(sm.map);
    layer.current = L.markerClusterGroup({
      maxClusterRadius: CLUSTER_RADIUS,
      showCoverageOnHover: false,
      spiderfyOnMaxZoom: true,
      iconCreateFunction: (cluster) => {
        const count = cluster.getChildCount();
        const label = t('{n} rooms here. Choose to zoom in.', { count, n: formatNumber(count, i18n.language) });
        return new NamedDivIcon(
          { className: 'sw-room-cluster', html: `<span aria-hidden="true">${escapeHtml(formatNumber(count, i18n.language))}</span>`, iconSize: [32, 32] },
          { 'aria-label': label, title: label, 'data-testid': 'sheet-room-cluster', 'data-count': String(count) },
        );
      },
    });
    // The plugin's cluster class for this map (it has no option for where a cluster is drawn).
    (layer.current as unknown as { _markerCluster: unknown })._markerCluster = AnchoredCluster;
    layer.current.addTo(sm.map);
    currentLayer.current = L.layerGroup().addTo(sm.map);
    snagLayer.current = L.layerGroup().addTo(sm.map);
    sm.map.on('click', (e: L.LeafletMouseEvent) => {
      if (!handlers.current.onSheetClick || !sm.bounds.contains(e.latlng)) return;
      const p = sm.toPixels(e.latlng);
      handlers.current.onSheetClick(Math.round(p.x), Math.round(p.y));
    });
    setMapVersion((v) => v + 1);
    return () => {
      sm.map.remove();
      sheetMap.current = null;
      layer.current = null;
      currentLayer.current = null;
      pathLayer.current = null;
      snagLayer.current = null;
      cone.current = null;
    };
    // The geometry is fixed for one sheet.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [g?.template, g?.width, g?.height, rtl, t, zoomControl]);

  // The walk: a line through the rooms in walking order, under the dots.
  useEffect(() => {
    const sm = sheetMap.current;
    const paths = pathLayer.current;
    if (!sm || !paths) return;
    paths.clearLayers();
    for (const line of walkLines(rooms)) {
      L.polyline(
        line.points.map((p) => sm.toLatLng(p.x, p.y)),
        { className: `sw-walk-path${line.tone ? ` tone-${line.tone}` : ''}`, interactive: false, weight: 3 },
      ).addTo(paths);
    }
  }, [rooms, g?.template, mapVersion]);

  // The room dots, clustered; the current room's mark above them, with its heading.
  useEffect(() => {
    const sm = sheetMap.current;
    const group = layer.current;
    const currentGroup = currentLayer.current;
    if (!sm || !group || !currentGroup) return;
    // Choosing a dot with the keyboard redraws the dots; the focus follows to the chosen room.
    const focused = (document.activeElement as HTMLElement | null)?.closest?.('[data-room]')?.getAttribute('data-room');
    group.clearLayers();
    currentGroup.clearLayers();
    const markers: L.Marker[] = [];
    let refocus: L.Marker | null = null;
    for (const r of rooms) {
      if (r.x === null || r.y === null) continue;
      const current = r.id === currentRoomId;
      const name = roomDotLabel(r.name, r.mark);
      if (current) {
        // Not a target (no role, no focus, no pointer): the dot under it, or its cluster, is the one to choose.
        const deg = headingDegrees(r.heading);
        const heading = deg === null ? '' : `<span class="sw-room-heading" style="transform: rotate(${deg}deg)"></span>`;
        const here = new NamedDivIcon({ className: 'sw-room-here', html: `${heading}<span class="sw-room-ring"></span>`, iconSize: [24, 24] }, { 'aria-hidden': 'true', 'data-testid': 'sheet-room-here' });
        L.marker(sm.toLatLng(r.x, r.y), { icon: here, interactive: false, keyboard: false, zIndexOffset: 2000 }).addTo(currentGroup);
      }
      const icon = new NamedDivIcon(
        {
          className: `sw-room-dot${current ? ' is-current' : ''}${r.tone ? ` tone-${r.tone}` : ''}`,
          html: `<span class="sw-room-core" data-testid="sheet-room" data-room="${r.id}"${current ? ' data-current="true"' : ''}></span>`,
          iconSize: [24, 24],
        },
        { 'aria-label': name, 'data-room': String(r.id), ...(current ? { 'aria-current': 'true' } : {}) },
      );
      const marker = L.marker(sm.toLatLng(r.x, r.y), { icon, title: name, keyboard: true, draggable: !!handlers.current.onMove, zIndexOffset: current ? 1000 : 0 });
      marker.on('click', () => handlers.current.onSelect?.(r.id));
      marker.on('keypress', (e) => {
        if (!isActivation(e)) return;
        (e as L.LeafletKeyboardEvent).originalEvent.preventDefault();
        handlers.current.onSelect?.(r.id);
      });
      marker.on('dragend', () => {
        const p = sm.toPixels(marker.getLatLng());
        handlers.current.onMove?.(r.id, Math.round(p.x), Math.round(p.y));
      });
      markers.push(marker);
      if (focused === String(r.id)) refocus = marker;
    }
    group.addLayers(markers);
    (refocus as L.Marker | null)?.getElement()?.focus();
  }, [rooms, currentRoomId, g?.template, mapVersion]);

  // The snag pins, above the rooms.
  useEffect(() => {
    const sm = sheetMap.current;
    if (!sm || !snagLayer.current) return;
    drawSnagPins(snagLayer.current, snagPins ?? [], sm.toLatLng, (id) => handlers.current.onSnagSelect?.(id));
  }, [snagPins, g?.template, mapVersion]);

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
  }, [rooms, currentRoomId, yaw, g, mapVersion]);

  if (!g) return null;
  return (
    <div className={`sw-sheet-viewer sw-sheet-rooms ${className ?? ''}`} dir="ltr">
      <div ref={el} className="h-100" role="application" aria-roledescription={t('zoomable plan')} aria-label={label} data-testid="sheet-rooms-map" />
    </div>
  );
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
