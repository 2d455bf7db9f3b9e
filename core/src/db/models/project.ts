import type { Pojo } from 'objection';
import { BaseModel } from './base.js';

/** pg turns DATE columns into local-midnight Dates; the API speaks 'YYYY-MM-DD'. */
export function localDate(v: unknown): string | null {
  if (v == null) return null;
  if (typeof v === 'string') return v.slice(0, 10);
  const d = v as Date;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export class Project extends BaseModel {
  static override tableName = 'projects';

  id!: number;
  id_owner!: number;
  name!: string;
  description!: string;
  client_name!: string;
  street!: string;
  city!: string;
  postal_code!: string;
  province!: string;
  country!: string;
  latitude!: number | null;
  longitude!: number | null;
  start_date!: string | null;
  end_date!: string | null;
  area!: number | null;
  num_buildings!: number | null;
  num_floors!: number | null;
  id_project_type!: number | null;
  cover!: string | null;
  cover_thumb!: string | null;
  cover_bytes!: number | string;
  project_code!: string;
  active!: boolean;
  validated!: boolean;
  validated_at!: Date | null;
  validated_by!: number | null;
  created_at!: Date;
  updated_at!: Date;

  override $parseDatabaseJson(json: Pojo): Pojo {
    const out = super.$parseDatabaseJson(json);
    if ('start_date' in out) out.start_date = localDate(out.start_date);
    if ('end_date' in out) out.end_date = localDate(out.end_date);
    return out;
  }

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}

/** A user's place in a project's team (filled by the team feature). */
export class ProjectMember extends BaseModel {
  static override tableName = 'project_members';
  id!: number;
  id_project!: number;
  id_user!: number;
  role!: string;
  permissions!: Record<string, unknown>;
  created_at!: Date;
}

export class ProjectStar extends BaseModel {
  static override tableName = 'project_stars';
  static override idColumn = ['id_user', 'id_project'];
  id_user!: number;
  id_project!: number;
  created_at!: Date;
}

export class ProjectType extends BaseModel {
  static override tableName = 'project_types';
  id!: number;
  name!: string;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}
