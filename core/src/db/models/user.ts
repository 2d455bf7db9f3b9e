import type { User as UserDto } from '@sitewalk/proto';
import { BaseModel } from './base.js';
import { authWriteHooks } from './auth-write-hooks.js';

const userWrites = authWriteHooks('users', 'id');

export class User extends BaseModel {
  static override tableName = 'users';

  id!: number;
  username!: string;
  email!: string;
  password_hash!: string;
  /** False for an account made through a sign-in service that never set a password (see migration 20261129_0400). */
  password_set!: boolean;
  first_name!: string;
  last_name!: string;
  company!: string;
  tax_id!: string;
  street!: string;
  city!: string;
  postal_code!: string;
  province!: string;
  country!: string;
  tel!: string;
  avatar!: string | null;
  cover_image!: string | null;
  super_admin!: boolean;
  role!: string;
  adsk_auth!: boolean;
  language!: string;
  active!: boolean;
  email_verified_at!: Date | null;
  invited_at!: Date | null;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }

  // A signed-in request reads its user from the session cache: every change ends the cached copies everywhere.
  static override beforeUpdate = userWrites.before;
  static override afterUpdate = userWrites.after;
  static override beforeDelete = userWrites.before;
  static override afterDelete = userWrites.after;
}

/**
 * The user as the API shows it: no hash, file keys turned into URLs by the
 * caller-supplied function (storage decides how files are reached).
 */
export function toUserDto(u: User, fileUrl: (key: string | null) => string | null): UserDto {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    avatar: fileUrl(u.avatar),
    cover_image: fileUrl(u.cover_image),
    super_admin: u.super_admin,
    role: u.role,
    adsk_auth: u.adsk_auth,
    company: u.company,
    tax_id: u.tax_id,
    street: u.street,
    city: u.city,
    postal_code: u.postal_code,
    province: u.province,
    country: u.country,
    tel: u.tel,
    language: u.language,
    active: u.active,
    created_at: new Date(u.created_at).toISOString(),
  };
}
