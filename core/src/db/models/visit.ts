import type { Pojo } from 'objection';
import { BaseModel } from './base.js';
import { localDate } from './project.js';

/** A visit: a dated 360° tour of a project, shared by its code. */
export class Visit extends BaseModel {
  static override tableName = 'visits';
  id!: number;
  id_project!: number;
  id_map!: number | null;
  id_user!: number | null;
  name!: string;
  description!: string;
  /** YYYY-MM-DD */
  date!: string;
  code!: string;
  created_at!: Date;
  updated_at!: Date;

  override $parseDatabaseJson(json: Pojo): Pojo {
    const out = super.$parseDatabaseJson(json);
    if ('date' in out) out.date = localDate(out.date);
    return out;
  }

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}

/** A link from a room to another, shown inside the first at yaw/pitch (radians). */
export class RoomHotspot extends BaseModel {
  static override tableName = 'room_hotspots';
  id!: number;
  id_room!: number;
  id_room_target!: number;
  yaw!: number;
  pitch!: number;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}

/** A point of interest inside a room, with an optional attached file. */
export class Poi extends BaseModel {
  static override tableName = 'pois';
  id!: number;
  id_room!: number;
  id_user!: number | null;
  title!: string;
  text!: string;
  link!: string;
  yaw!: number;
  pitch!: number;
  file_key!: string | null;
  file_name!: string | null;
  file_mime!: string | null;
  file_size!: number | null;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}
