import { BaseModel } from './base.js';

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
