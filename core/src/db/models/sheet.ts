import type { SheetStatus, PanoramaLevel, PdfUploadStatus, RoomStatus } from '@sitewalk/proto';
import { BaseModel } from './base.js';

/** A sheet: one floor plan of a project (the API calls it a map). */
export class Sheet extends BaseModel {
  static override tableName = 'maps';
  id!: number;
  id_project!: number;
  name!: string;
  page_label!: string;
  id_upload!: number | null;
  page!: number | null;
  status!: SheetStatus;
  width!: number | null;
  height!: number | null;
  dpi!: number | null;
  tile_size!: number | null;
  max_zoom!: number | null;
  /** Storage folder of the sheet: tiles/ and the thumbnail live under it. */
  folder!: string | null;
  thumbnail!: string | null;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}

/** The state row of one PDF-to-sheets job. */
export class PdfUpload extends BaseModel {
  static override tableName = 'pdf_uploads';
  id!: number;
  id_project!: number;
  id_user!: number | null;
  file_key!: string | null;
  original_name!: string;
  size_bytes!: number;
  status!: PdfUploadStatus;
  pages_total!: number | null;
  pages_done!: number;
  error!: string | null;
  sheet_ids!: number[];
  finished_at!: Date | null;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}

/**
 * A room: one 360 photo of a visit, its tiles (made by the room.tiles
 * worker) and where it sits on a sheet.
 */
export class Room extends BaseModel {
  static override tableName = 'rooms';
  id!: number;
  id_map!: number | null;
  id_visit!: number | null;
  id_user!: number | null;
  name!: string;
  x!: number | null;
  y!: number | null;
  heading!: number | null;
  osfm_cluster!: number | null;
  position!: number;
  status!: RoomStatus;
  error!: string | null;
  original_name!: string;
  size_bytes!: number;
  width!: number | null;
  height!: number | null;
  /** Storage key of the uploaded photo. */
  file_key!: string | null;
  /** Storage folder of the current tiles, base image and thumbnail. */
  folder!: string | null;
  tile_size!: number | null;
  levels!: PanoramaLevel[] | null;
  pano_width!: number | null;
  created_at!: Date;
  updated_at!: Date;

  static override get jsonAttributes() {
    return ['levels'];
  }

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}
