import type { Annotation, AnnotationFieldChange, AnnotationHistoryAction } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { historyOfAnnotations, peopleByName } from '@sitewalk/core/repositories/annotations.repository.js';
import { roomPlacesAndFiles } from '@sitewalk/core/repositories/rooms.repository.js';
import { sheetTilesOf } from '@sitewalk/core/repositories/sheets.repository.js';
import { visitDatesOf } from '@sitewalk/core/repositories/visits.repository.js';
import { config } from '@sitewalk/core/config.js';
import { exists, readBuffer } from '@sitewalk/core/storage';
import { ROOM_FILES } from '@sitewalk/core/services/rooms-dto.js';
import { snagLink } from '@sitewalk/core/services/annotation-notifications.service.js';
import { english, priorityLabel, statusLabel, type SnagHistoryLine, type SnagRecord, type Translate } from './snag-record.js';
import type { SheetTiles } from '../adapters/snag-images.js';

/**
 * Turns the snags of an export (as the snag-list service lists them, so the
 * filters and who-sees-what are decided there) into the plain records the
 * generators read, and finds the files their pictures are cut from. Reads
 * the database in a few bulk queries, whatever the number of snags.
 */

export interface SnagSources {
  records: SnagRecord[];
  /** Per snag id: the room's 360 photo (storage key) and the pin's view. */
  panoramas: Map<number, { photo: string; yaw: number; pitch: number; zoom: number | null }>;
  /** Per snag id: the sheet's tiles and the pin. */
  sheets: Map<number, { tiles: SheetTiles; x: number; y: number }>;
}

const FIELD_LABEL: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  status: 'Status',
  priority: 'Priority',
  id_assignee: 'Assignee',
  due_date: 'Due date',
  files: 'Files',
  id_room: 'Room',
  id_map: 'Sheet',
  yaw: 'Place in the room',
  pitch: 'Place in the room',
  zoom: 'Zoom',
  x: 'Place on the sheet',
  y: 'Place on the sheet',
};

const ACTION_TEXT: Record<AnnotationHistoryAction, string> = {
  created: 'Created',
  updated: 'Changed',
  comment: 'Commented',
  file_added: 'File added',
  file_removed: 'File removed',
};

/** One change in words: 'Status: Open → In progress'. Long texts are not repeated, only named. */
export function changeText(c: AnnotationFieldChange, people: ReadonlyMap<number, string>, t: Translate = english): string {
  const label = FIELD_LABEL[c.field] ? t(FIELD_LABEL[c.field]) : c.field;
  const word = (v: unknown): string => {
    if (v === null || v === undefined || v === '') return '—';
    if (c.field === 'status') return statusLabel(String(v), t);
    if (c.field === 'priority') return priorityLabel(String(v), t);
    if (c.field === 'id_assignee') return people.get(Number(v)) ?? `#${v}`;
    if (Array.isArray(v)) return String(v.length);
    if (typeof v === 'number') return String(Math.round(v * 100) / 100);
    return String(v);
  };
  if (c.field === 'description') return t('{field} changed', { field: label });
  if (['yaw', 'pitch', 'x', 'y', 'zoom'].includes(c.field)) return t('{field} moved', { field: label });
  return `${label}: ${word(c.from)} → ${word(c.to)}`;
}

const personName = (u: { first_name?: string | null; last_name?: string | null; username: string }) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ').trim() || u.username;

/** The snag's address in the app, absolute (a report is read outside it). */
export const snagUrl = (a: Pick<Annotation, 'id' | 'id_room' | 'visit_code'>) => `${config.appUrl}${snagLink(a)}`;

export async function snagSources(snags: readonly Annotation[], t: Translate = english): Promise<SnagSources> {
  const ids = snags.map((s) => s.id);
  const k = db();
  const [history, visits, rooms, maps] = await Promise.all([
    ids.length ? historyOfAnnotations(k, ids) : Promise.resolve([]),
    visitDatesOf(k, [...new Set(snags.map((s) => s.id_visit))]),
    roomPlacesAndFiles(k, [...new Set(snags.map((s) => s.id_room).filter((r): r is number => !!r))]),
    sheetTilesOf(k, [...new Set(snags.map((s) => s.id_map).filter((m): m is number => !!m))]),
  ]);

  // Names for assignee ids named in the history.
  const assigneeIds = new Set<number>();
  for (const h of history) for (const c of h.changes ?? []) if (c.field === 'id_assignee') for (const v of [c.from, c.to]) if (typeof v === 'number') assigneeIds.add(v);
  const people = new Map<number, string>(
    assigneeIds.size ? (await peopleByName(k, [...assigneeIds])).map((u) => [u.id, personName(u)]) : [],
  );
  const historyOf = new Map<number, SnagHistoryLine[]>();
  for (const h of history) {
    const changes = (h.changes ?? []).filter((c, i, all) => !(c.field === 'pitch' && all.some((o) => o.field === 'yaw')) && !(c.field === 'y' && all.some((o) => o.field === 'x')));
    const text = h.action === 'updated' && changes.length ? changes.map((c) => changeText(c, people, t)).join('; ') : t(ACTION_TEXT[h.action] ?? h.action);
    const line: SnagHistoryLine = { at: new Date(h.created_at).toISOString(), who: h.username ? personName({ ...h, username: h.username }) : null, text, comment: h.comment };
    historyOf.set(h.id_annotation, [...(historyOf.get(h.id_annotation) ?? []), line]);
  }
  const visitDate = new Map(visits.map((v) => [v.id, v.date]));
  const roomById = new Map(rooms.map((r) => [r.id, r]));
  const mapById = new Map(maps.map((m) => [m.id, m]));

  const panoramas: SnagSources['panoramas'] = new Map();
  const sheets: SnagSources['sheets'] = new Map();
  const records: SnagRecord[] = [];
  for (const a of snags) {
    const room = a.id_room ? roomById.get(a.id_room) : undefined;
    const map = a.id_map ? mapById.get(a.id_map) : undefined;
    // The room's place is in the sheet's frame only when the room sits on the snag's sheet.
    const roomPlace = room && room.x != null && room.y != null && room.id_map != null && room.id_map === a.id_map ? { x: room.x, y: room.y, heading: room.heading } : null;
    records.push({
      id: a.id,
      title: a.title,
      description: a.description,
      status: a.status,
      priority: a.priority,
      project_name: a.project_name,
      visit_name: a.visit_name,
      visit_date: visitDate.get(a.id_visit) ?? null,
      room_name: a.room_name,
      map_name: a.map_name,
      yaw: a.yaw,
      pitch: a.pitch,
      zoom: a.zoom,
      x: a.x,
      y: a.y,
      room_place: roomPlace,
      assignee: a.assignee?.name ?? null,
      author: a.author?.name ?? null,
      due_date: a.due_date,
      overdue: a.overdue,
      created_at: a.created_at,
      updated_at: a.updated_at,
      files: a.files.map((f) => f.name),
      history: historyOf.get(a.id) ?? [],
      link: snagUrl(a),
    });
    if (room && room.status === 'ready' && a.yaw != null && a.pitch != null) {
      // The photo as uploaded when it is still kept, else the base panorama the viewer shows first.
      const key = room.file_key && (await exists(room.file_key)) ? room.file_key : room.folder ? `${room.folder}/${ROOM_FILES.base}` : null;
      if (key && (await exists(key))) panoramas.set(a.id, { photo: key, yaw: a.yaw, pitch: a.pitch, zoom: a.zoom });
    }
    if (map && map.status === 'ready' && map.folder && map.width && map.height && map.tile_size && map.max_zoom != null && a.x != null && a.y != null) {
      const tilesDir = `${map.folder}/tiles`;
      sheets.set(a.id, { tiles: { tilesDir, readTile: (rel) => readBuffer(`${tilesDir}/${rel}`), width: map.width, height: map.height, tileSize: map.tile_size, maxZoom: map.max_zoom }, x: a.x, y: a.y });
    }
  }
  return { records, panoramas, sheets };
}
