import { BaseModel } from './base.js';
import { authWriteHooks } from './auth-write-hooks.js';

const sessionWrites = authWriteHooks('sessions', 'user_id');

export class Session extends BaseModel {
  static override tableName = 'sessions';
  id!: number;
  user_id!: number;
  token_hash!: string;
  expires_at!: Date;
  remember!: boolean;
  ip!: string | null;
  user_agent!: string | null;
  last_used_at!: Date | null;
  created_at!: Date;

  // A logout, a rotation or a revocation ends the cached session in every API process (core/services/session-invalidation.ts).
  static override beforeUpdate = sessionWrites.before;
  static override afterUpdate = sessionWrites.after;
  static override beforeDelete = sessionWrites.before;
  static override afterDelete = sessionWrites.after;
}

export class UserToken extends BaseModel {
  static override tableName = 'user_tokens';
  id!: number;
  user_id!: number;
  purpose!: 'password_reset' | 'activation' | 'invitation';
  token_hash!: string;
  expires_at!: Date;
  used_at!: Date | null;
  created_at!: Date;
}
