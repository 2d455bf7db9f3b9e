import { BaseModel } from './base.js';

/** A walk-through video of a visit (at most one per visit). */
export class Video extends BaseModel {
  static override tableName = 'videos';
  id!: number;
  id_visit!: number;
  id_project!: number;
  id_user!: number | null;
  original_name!: string;
  size_bytes!: number;
  /** Storage folder: the source file and the steps' outputs (work/). */
  folder!: string;
  file_key!: string;
  codec!: string;
  duration!: number;
  width!: number;
  height!: number;
  fps!: number;
  rotation!: number;
  is_360!: boolean;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}
