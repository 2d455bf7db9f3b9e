import { XMLBuilder } from 'fast-xml-parser';
import yazl from 'yazl';
import { fovForZoom, priorityLabel, snagGuids, statusLabel, type PictureSource, type SnagRecord } from './snag-record.js';
import { finished } from 'node:stream/promises';

/**
 * BCF 2.1 (buildingSMART BIM Collaboration Format), so BIM tools can read the
 * snag list: a zip holding bcf.version and one folder per topic (the snag),
 * named by the topic's GUID, with markup.bcf (the topic, its history as
 * comments, its viewpoint), viewpoint.bcfv (the camera) and snapshot.jpg.
 *
 * The camera: a 360 room has no model coordinates, so the model's frame is
 * the sheet's: X to the right, Y up the sheet (sheet pixels, y flipped), Z up,
 * the camera at the room's place on the sheet (at the origin when the room is
 * not placed). It looks where the pin is: the room's heading (where its yaw 0
 * points, clockwise from the sheet's up) plus the pin's yaw, tilted by its
 * pitch, with the viewer's field of view at the pin's zoom.
 */

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: true });
const xml = (doc: object) => `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(doc)}`;

/** BCF 2.1 takes a PNG or JPEG snapshot; the pictures are JPEG. */
export const SNAPSHOT_NAME = 'snapshot.jpg';

export interface BcfOptions {
  /** The server's address: part of every GUID, so re-exports keep them. */
  origin: string;
}

/** BCF dates are xs:dateTime. */
const dateTime = (iso: string) => new Date(iso).toISOString();

const vec = (x: number, y: number, z: number) => ({ X: round(x), Y: round(y), Z: round(z) });
const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** The camera of a snag's viewpoint in the sheet frame (see above). */
export function snagCamera(s: SnagRecord) {
  const heading = s.room_place?.heading ?? 0;
  const a = heading + (s.yaw ?? 0);
  const p = s.pitch ?? 0;
  const at = s.room_place ? { x: s.room_place.x, y: -s.room_place.y } : s.x != null && s.y != null ? { x: s.x, y: -s.y } : { x: 0, y: 0 };
  return {
    CameraViewPoint: vec(at.x, at.y, 0),
    CameraDirection: vec(Math.sin(a) * Math.cos(p), Math.cos(a) * Math.cos(p), Math.sin(p)),
    CameraUpVector: vec(-Math.sin(a) * Math.sin(p), -Math.cos(a) * Math.sin(p), Math.cos(p)),
    FieldOfView: round(fovForZoom(s.zoom)),
  };
}

export function markupXml(s: SnagRecord, opts: BcfOptions, hasSnapshot: boolean): string {
  const g = snagGuids(opts.origin, s.id, s.history.length);
  const topic: Record<string, unknown> = {
    '@_Guid': g.topic,
    '@_TopicType': 'Issue',
    '@_TopicStatus': statusLabel(s.status),
    // Element order is fixed by markup.xsd.
    ReferenceLink: s.link,
    Title: s.title,
    Priority: priorityLabel(s.priority),
    Index: s.id,
    Labels: [s.project_name, s.visit_name, ...(s.room_name ? [s.room_name] : [])],
    CreationDate: dateTime(s.created_at),
    CreationAuthor: s.author ?? 'unknown',
    ModifiedDate: dateTime(s.updated_at),
    ...(s.due_date ? { DueDate: `${s.due_date}T00:00:00Z` } : {}),
    ...(s.assignee ? { AssignedTo: s.assignee } : {}),
    ...(s.description ? { Description: s.description } : {}),
  };
  const comments = s.history.map((h, i) => ({
    '@_Guid': g.comments[i],
    Date: dateTime(h.at),
    Author: h.who ?? 'unknown',
    Comment: h.comment ? `${h.text}: ${h.comment}` : h.text,
    Viewpoint: { '@_Guid': g.viewpoint },
  }));
  const viewpoint = { '@_Guid': g.viewpoint, Viewpoint: 'viewpoint.bcfv', ...(hasSnapshot ? { Snapshot: SNAPSHOT_NAME } : {}) };
  return xml({
    Markup: {
      '@_xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      '@_xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
      Topic: topic,
      ...(comments.length ? { Comment: comments } : {}),
      Viewpoints: viewpoint,
    },
  });
}

export function viewpointXml(s: SnagRecord, opts: BcfOptions): string {
  const g = snagGuids(opts.origin, s.id, 0);
  return xml({
    VisualizationInfo: {
      '@_Guid': g.viewpoint,
      '@_xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      '@_xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
      PerspectiveCamera: snagCamera(s),
    },
  });
}

export const VERSION_XML = xml({
  Version: {
    '@_VersionId': '2.1',
    '@_xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    '@_xsi:noNamespaceSchemaLocation': 'version.xsd',
    DetailedVersion: '2.1',
  },
});

/**
 * Writes the BCF 2.1 zip of the snags into `out`, asking for each snag's
 * pictures as it goes; `onSnag` is told after each one (for progress).
 */
export async function writeBcf(
  snags: readonly SnagRecord[],
  pictures: PictureSource,
  opts: BcfOptions,
  out: NodeJS.WritableStream,
  onSnag?: (done: number) => void,
): Promise<void> {
  const zip = new yazl.ZipFile();
  const written = finished(zip.outputStream.pipe(out));
  zip.addBuffer(Buffer.from(VERSION_XML), 'bcf.version');
  for (const [i, s] of snags.entries()) {
    const { topic } = snagGuids(opts.origin, s.id, 0);
    const pics = await pictures(s);
    const snapshot = pics.snapshot ?? pics.sheet;
    zip.addBuffer(Buffer.from(markupXml(s, opts, !!snapshot)), `${topic}/markup.bcf`);
    zip.addBuffer(Buffer.from(viewpointXml(s, opts)), `${topic}/viewpoint.bcfv`);
    // JPEG is already compressed.
    if (snapshot) zip.addBuffer(snapshot, `${topic}/${SNAPSHOT_NAME}`, { compress: false });
    onSnag?.(i + 1);
  }
  zip.end();
  await written;
}
