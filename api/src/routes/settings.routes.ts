import { SECRET_PLACEHOLDER, STORAGE_SETTING_KEYS, settingsUpdateSchema, storageCheckSchema, type Settings, type StorageCheckResult } from '@sitewalk/proto';
import { ok } from '../http/envelope.js';
import { currentUser, optionalAuth, requireAuth, requireSuperAdmin } from '../http/auth.js';
import { body } from '../http/validate.js';
import { anonymousSettings, getSettings, publicSettings, updateSettings } from '@sitewalk/core/services/settings.service.js';
import { refreshStorage } from '@sitewalk/core/storage';
import { checkS3Storage } from '@sitewalk/core/storage/check.js';
import type { RouteModule } from './types.js';

/**
 * SPEC §7 "Settings": signed-in users read them (secrets masked), anyone else
 * only the public keys; super admins change them.
 */
const settingsRoutes: RouteModule = (r) => {
  r.get('/settings', optionalAuth, async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Vary', 'Authorization');
    const all = await getSettings();
    ok<Partial<Settings>>(ctx, ctx.state.auth ? publicSettings(all) : anonymousSettings(all));
  });

  r.put('/settings', requireAuth, requireSuperAdmin, async (ctx) => {
    const patch = body(ctx, settingsUpdateSchema) as Partial<Settings>;
    const { changed, smtp_check_queued } = await updateSettings(patch, currentUser(ctx).id);
    // This process stores with the new driver at once; the others within a few seconds.
    if (changed.some((k) => (STORAGE_SETTING_KEYS as readonly string[]).includes(k))) refreshStorage();
    const message = !changed.length
      ? 'Nothing changed.'
      : smtp_check_queued
        ? 'Settings saved. The mail server is being checked; you will be notified of the result.'
        : changed.some((k) => k.startsWith('smtp_'))
          ? 'Settings saved, but the mail server check could not be started. Save again to retry.'
          : 'Settings saved.';
    ok<Settings>(ctx, publicSettings(await getSettings()), message);
  });

  // "Test storage": the form's Storage settings (saved or not) write, read and delete a file in the bucket.
  r.post('/settings/storage-check', requireAuth, requireSuperAdmin, async (ctx) => {
    const input = body(ctx, storageCheckSchema);
    const stored = await getSettings();
    const merged = { ...stored, ...input };
    // A secret left out or sent back masked is the stored one; it is never sent to the browser.
    for (const k of ['aws_s3_key', 'aws_s3_secret'] as const) if (input[k] === undefined || input[k] === SECRET_PLACEHOLDER) merged[k] = stored[k];
    const result = await checkS3Storage(merged);
    ok<StorageCheckResult>(ctx, result, result.message);
  });
};

export default settingsRoutes;
