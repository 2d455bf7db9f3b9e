import crypto from 'node:crypto';

/**
 * Authenticated encryption of short texts (secrets kept in the database),
 * with AES-256-GCM from node:crypto. Framework-free: the key material comes
 * from the caller.
 *
 * A sealed text reads `enc:v1:<base64url of iv | tag | ciphertext>`. The
 * version lets a later key or algorithm live next to this one. The optional
 * context (for settings: the setting's name) is bound as additional data, so
 * a sealed value copied to another row does not open there.
 */
export const SEALED_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class CryptoBoxError extends Error {
  override name = 'CryptoBoxError';
}

export interface CryptoBox {
  seal(plain: string, context?: string): string;
  /** The plain text; CryptoBoxError when the key is not the one that sealed it or the text was altered. */
  open(sealed: string, context?: string): string;
}

/** True for a text this module sealed (whatever the key). */
export const isSealed = (v: unknown): v is string => typeof v === 'string' && v.startsWith(SEALED_PREFIX);

/**
 * A box whose 256-bit key is derived with HKDF-SHA-256 from `keyMaterial`
 * (any length, e.g. APP_SECRET) for one `purpose`, so the same secret used
 * elsewhere (signing URLs) never serves as this key directly.
 */
export function cryptoBox(keyMaterial: string, purpose: string): CryptoBox {
  if (!keyMaterial) throw new CryptoBoxError('No key material given.');
  const key = Buffer.from(crypto.hkdfSync('sha256', keyMaterial, 'sitewalk-crypto-box', purpose, 32));
  return {
    seal(plain, context = '') {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed, context = '') {
      if (!isSealed(sealed)) throw new CryptoBoxError('The text is not sealed.');
      const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new CryptoBoxError('The sealed text is too short.');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new CryptoBoxError('The sealed text does not open with this key (another key, or altered).');
      }
    },
  };
}
