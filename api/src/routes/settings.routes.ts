import { settingsUpdateSchema, type Settings } from '@sitewalk/proto';
import { ok } from '../http/envelope.js';
import { currentUser, requireAuth, requireSuperAdmin } from '../http/auth.js';
import { body } from '../http/validate.js';
import { getSettings, publicSettings, updateSettings } from '../core/services/settings.service.js';
import type { RouteModule } from './types.js';

/** SPEC §7 "Settings": everyone reads them (secrets masked); super admins change them. */
const settingsRoutes: RouteModule = (r) => {
  r.get('/settings', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ok<Settings>(ctx, publicSettings(await getSettings()));
  });

  r.put('/settings', requireAuth, requireSuperAdmin, async (ctx) => {
    const patch = body(ctx, settingsUpdateSchema) as Partial<Settings>;
    const { changed, smtp_check_queued } = await updateSettings(patch, currentUser(ctx).id);
    const message = !changed.length
      ? 'Nothing changed.'
      : smtp_check_queued
        ? 'Settings saved. The mail server is being checked; you will be notified of the result.'
        : changed.some((k) => k.startsWith('smtp_'))
          ? 'Settings saved, but the mail server check could not be started. Save again to retry.'
          : 'Settings saved.';
    ok<Settings>(ctx, publicSettings(await getSettings()), message);
  });
};

export default settingsRoutes;
