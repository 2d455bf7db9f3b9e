import { describe, expect, it } from 'vitest';
import { s3OptionsFromSettings, s3SettingsFromEnv, type S3StorageSettings } from './s3-options.js';

const base: S3StorageSettings = {
  aws_s3_type: 'aws',
  aws_s3_vt_auto: true,
  aws_s3_accountid: '',
  aws_s3_custom_domain: '',
  aws_s3_region: 'eu-west-1',
  aws_s3_key: 'AKIA123',
  aws_s3_secret: 'shh',
  aws_s3_bucket: 'site-files',
  aws_s3_endpoint: '',
};

describe('S3 options from the Storage settings', () => {
  it('AWS: the region, virtual-hosted addressing, no endpoint', () => {
    expect(s3OptionsFromSettings(base)).toEqual({
      ok: true,
      options: { type: 'aws', bucket: 'site-files', region: 'eu-west-1', forcePathStyle: false, accessKeyId: 'AKIA123', secretAccessKey: 'shh', customDomain: undefined },
    });
  });

  it('R2: the account endpoint and region auto; a CDN domain gets https', () => {
    const r = s3OptionsFromSettings({ ...base, aws_s3_type: 'r2', aws_s3_region: '', aws_s3_accountid: 'a'.repeat(32), aws_s3_custom_domain: 'cdn.example.com/' });
    expect(r.ok && r.options).toMatchObject({ endpoint: `https://${'a'.repeat(32)}.r2.cloudflarestorage.com`, region: 'auto', customDomain: 'https://cdn.example.com' });
  });

  it('custom: the endpoint with path-style addressing, us-east-1 when no region is given', () => {
    const r = s3OptionsFromSettings({ ...base, aws_s3_type: 'custom', aws_s3_region: '', aws_s3_endpoint: 'http://127.0.0.1:9000/' });
    expect(r.ok && r.options).toMatchObject({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, region: 'us-east-1' });
  });

  it('says in words what is missing', () => {
    const reason = (s: Partial<S3StorageSettings>) => {
      const r = s3OptionsFromSettings({ ...base, ...s });
      return r.ok ? null : r.reason;
    };
    expect(reason({ aws_s3_type: '' })).toBe('No storage type is chosen: files stay on the local disk.');
    expect(reason({ aws_s3_bucket: ' ' })).toBe('The bucket name is missing.');
    expect(reason({ aws_s3_secret: '' })).toBe('The access key and the secret key are both needed.');
    expect(reason({ aws_s3_region: '' })).toBe('The region is missing (for example eu-west-1).');
    expect(reason({ aws_s3_type: 'r2', aws_s3_accountid: 'nope' })).toMatch(/^Cloudflare R2 needs the account id/);
    expect(reason({ aws_s3_type: 'custom' })).toMatch(/^A custom storage needs its endpoint URL/);
  });

  it('the S3_* environment: custom when an endpoint is given', () => {
    const s = s3SettingsFromEnv({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
    expect(s3OptionsFromSettings(s)).toMatchObject({ ok: true, options: { type: 'custom', bucket: 'b', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true } });
  });
});
