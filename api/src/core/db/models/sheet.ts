import type { MapStatus, PdfUploadStatus } from '@sitewalk/proto';
import { BaseModel } from './base.js';

/** A sheet: one floor plan of a project (the API calls it a map). */
export class SheetMap extends BaseModel {
  static override tableName = 'maps';
  id!: number;
  id_project!: number;
  name!: string;
  page_label!: string;
  id_upload!: number | null;
  page!: number | null;
  status!: MapStatus;
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

/** The part of a room a sheet needs: where it sits on the sheet. Visits own the rest. */
export class Room extends BaseModel {
  static override tableName = 'rooms';
  id!: number;
  id_map!: number | null;
  id_visit!: number | null;
  name!: string;
  x!: number | null;
  y!: number | null;
  osfm_cluster!: number | null;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}
