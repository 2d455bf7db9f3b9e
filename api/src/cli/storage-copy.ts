/**
 * Copies every stored file between the local disk and the S3 bucket:
 *
 *   npm run storage:copy -- --to s3        (disk → bucket)
 *   npm run storage:copy -- --to local     (bucket → disk)
 *   options: --folder projects/12  only that folder
 *            --fresh               forget the manifest and check every file again
 *
 * Each file is verified by size and SHA-256 read back from the destination;
 * files already there and equal are skipped, so it is safe to run again and
 * again (and is how a switch without downtime is done: see README "Storage").
 * The bucket is the one of the S3_* variables when S3_BUCKET is set, else the
 * one in the Storage settings. Exits 1 when a file could not be copied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { config } from '@sitewalk/core/config.js';
import { closeDb } from '@sitewalk/core/db';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import { copyStorage } from '@sitewalk/core/storage/copy.js';
import { localDriver } from '@sitewalk/core/storage/local-driver.js';
import { s3Driver } from '@sitewalk/core/storage/s3-driver.js';
import { s3OptionsFromSettings, s3SettingsFromEnv } from '@sitewalk/core/storage/s3-options.js';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { to: { type: 'string' }, folder: { type: 'string', default: '' }, fresh: { type: 'boolean', default: false } } });
  if (values.to !== 's3' && values.to !== 'local') {
    console.error('Say where to copy: --to s3 (disk to bucket) or --to local (bucket to disk).');
    return 2;
  }
  const settings = process.env.S3_BUCKET ? s3SettingsFromEnv(process.env) : await getSettings();
  const parsed = s3OptionsFromSettings(settings);
  if (!parsed.ok) {
    console.error(`The bucket is not configured: ${parsed.reason}`);
    return 2;
  }
  const disk = localDriver(config.storageDir);
  const bucket = s3Driver(parsed.options);
  const [from, to] = values.to === 's3' ? [disk, bucket] : [bucket, disk];
  const manifest = path.join(config.dataDir, `storage-copy-to-${values.to}-${parsed.options.bucket}.jsonl`);
  if (values.fresh) fs.rmSync(manifest, { force: true });
  console.log(`Copying ${values.folder || 'every file'} from ${values.to === 's3' ? `${config.storageDir} to the bucket "${parsed.options.bucket}"` : `the bucket "${parsed.options.bucket}" to ${config.storageDir}`}…`);
  let lastLog = 0;
  const result = await copyStorage(from, to, {
    folder: values.folder,
    manifest,
    onFile: (key, outcome, p) => {
      if (outcome === 'failed') console.error(`  could not copy ${key}: ${p.failed.at(-1)?.reason}`);
      const n = p.copied + p.skipped + p.failed.length;
      if (Date.now() - lastLog > 2000 || n === p.total) {
        lastLog = Date.now();
        console.log(`  ${n} of ${p.total} files: ${p.copied} copied, ${p.skipped} already there, ${p.failed.length} failed`);
      }
    },
  });
  console.log(
    `Done: ${result.total} files, ${result.copied} copied (${(result.bytes / 1e6).toFixed(1)} MB), ${result.skipped} already there and equal, ${result.failed.length} failed.` +
      (result.failed.length ? ' Run the command again to retry the failed ones.' : ''),
  );
  return result.failed.length ? 1 : 0;
}

main()
  .then(async (code) => {
    await closeDb().catch(() => undefined);
    process.exit(code);
  })
  .catch(async (err) => {
    console.error(err instanceof Error ? err.message : err);
    await closeDb().catch(() => undefined);
    process.exit(1);
  });
