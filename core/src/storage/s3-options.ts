/**
 * Where the S3 driver connects, from the "Storage" settings (SPEC §3) or the
 * S3_* environment variables. Pure: no network, unit-tested beside it.
 *
 * aws_s3_type picks the provider's endpoint style:
 * - `aws`: Amazon S3 in aws_s3_region, virtual-hosted addressing;
 * - `r2`: Cloudflare R2, `https://<aws_s3_accountid>.r2.cloudflarestorage.com`, region `auto`;
 * - `custom`: any S3-compatible server (MinIO, Ceph, Wasabi, Backblaze B2…) at
 *   aws_s3_endpoint, path-style addressing (bucket in the path), which every one of them speaks.
 * An empty type means local disk.
 */
export type S3Type = 'aws' | 'r2' | 'custom';

export interface S3StorageSettings {
  aws_s3_type: string;
  aws_s3_vt_auto: boolean;
  aws_s3_accountid: string;
  aws_s3_custom_domain: string;
  aws_s3_region: string;
  aws_s3_key: string;
  aws_s3_secret: string;
  aws_s3_bucket: string;
  aws_s3_endpoint: string;
  /** Environment only (S3_PUBLIC_ENDPOINT). */
  public_endpoint?: string;
}

export interface S3Options {
  type: S3Type;
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  /** Public host (a CDN in front of the bucket) that file URLs use instead of presigned URLs. */
  customDomain?: string;
  /** The endpoint as browsers reach it, when the servers use an inner one (docker compose: http://minio:9000 inside). */
  publicEndpoint?: string;
}

export const S3_TYPES: readonly S3Type[] = ['aws', 'r2', 'custom'];

/** The S3 options the settings describe, or a sentence saying what is missing. */
export function s3OptionsFromSettings(s: S3StorageSettings): { ok: true; options: S3Options } | { ok: false; reason: string } {
  const type = s.aws_s3_type.trim().toLowerCase();
  if (!type) return { ok: false, reason: 'No storage type is chosen: files stay on the local disk.' };
  if (!(S3_TYPES as readonly string[]).includes(type)) return { ok: false, reason: `The storage type "${s.aws_s3_type}" is unknown; choose aws, r2 or custom.` };
  const bucket = s.aws_s3_bucket.trim();
  if (!bucket) return { ok: false, reason: 'The bucket name is missing.' };
  if (!s.aws_s3_key.trim() || !s.aws_s3_secret) return { ok: false, reason: 'The access key and the secret key are both needed.' };
  const base = { bucket, accessKeyId: s.aws_s3_key.trim(), secretAccessKey: s.aws_s3_secret, customDomain: cleanDomain(s.aws_s3_custom_domain), ...(s.public_endpoint ? { publicEndpoint: s.public_endpoint.replace(/\/+$/, '') } : {}) };
  if (type === 'aws') {
    const region = s.aws_s3_region.trim();
    if (!region) return { ok: false, reason: 'The region is missing (for example eu-west-1).' };
    return { ok: true, options: { ...base, type, region, forcePathStyle: false } };
  }
  if (type === 'r2') {
    const account = s.aws_s3_accountid.trim();
    if (!/^[a-f0-9]{32}$/i.test(account)) return { ok: false, reason: 'Cloudflare R2 needs the account id (32 letters and digits, shown on the R2 page of the Cloudflare dashboard).' };
    return { ok: true, options: { ...base, type, region: 'auto', endpoint: `https://${account}.r2.cloudflarestorage.com`, forcePathStyle: false } };
  }
  const endpoint = s.aws_s3_endpoint.trim().replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(endpoint)) return { ok: false, reason: 'A custom storage needs its endpoint URL, for example https://s3.example.com or http://127.0.0.1:9000.' };
  return { ok: true, options: { ...base, type: 'custom', region: s.aws_s3_region.trim() || 'us-east-1', endpoint, forcePathStyle: true } };
}

/** `cdn.example.com`, `https://cdn.example.com/` → `https://cdn.example.com`; empty → undefined. */
function cleanDomain(d: string): string | undefined {
  const t = d.trim().replace(/\/+$/, '');
  if (!t) return undefined;
  return /^https?:\/\//.test(t) ? t : `https://${t}`;
}

/**
 * STORAGE_DRIVER=s3 with S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and
 * S3_ENDPOINT (custom) or S3_REGION (aws), optionally S3_PUBLIC_ENDPOINT,
 * S3_CUSTOM_DOMAIN, S3_TYPE and S3_ACCOUNT_ID: the environment chooses the driver
 * for every process and the settings are not read (tests, docker compose).
 */
export function s3SettingsFromEnv(env: NodeJS.ProcessEnv): S3StorageSettings {
  return {
    aws_s3_type: env.S3_TYPE ?? (env.S3_ENDPOINT ? 'custom' : 'aws'),
    aws_s3_vt_auto: true,
    aws_s3_accountid: env.S3_ACCOUNT_ID ?? '',
    aws_s3_custom_domain: env.S3_CUSTOM_DOMAIN ?? '',
    aws_s3_region: env.S3_REGION ?? '',
    aws_s3_key: env.S3_ACCESS_KEY_ID ?? '',
    aws_s3_secret: env.S3_SECRET_ACCESS_KEY ?? '',
    aws_s3_bucket: env.S3_BUCKET ?? '',
    aws_s3_endpoint: env.S3_ENDPOINT ?? '',
    public_endpoint: env.S3_PUBLIC_ENDPOINT ?? '',
  };
}
