import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config } from './config.js';

let cached: string | null = null;

/**
 * The server's signing secret: APP_SECRET, or one generated once and kept in
 * the data folder so restarts keep signed URLs valid.
 */
export function appSecret(): string {
  if (cached) return cached;
  if (config.appSecret) return (cached = config.appSecret);
  const file = path.join(config.dataDir, 'app-secret');
  try {
    cached = fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const fresh = crypto.randomBytes(32).toString('hex');
    try {
      fs.writeFileSync(file, fresh, { flag: 'wx', mode: 0o600 });
      cached = fresh;
    } catch {
      cached = fs.readFileSync(file, 'utf8').trim(); // another process won the race
    }
  }
  return cached!;
}

/** A random token of 256 bits, URL-safe. */
export const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** Tokens are stored only as SHA-256 hashes. */
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export function hmac(data: string): string {
  return crypto.createHmac('sha256', appSecret()).update(data).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
