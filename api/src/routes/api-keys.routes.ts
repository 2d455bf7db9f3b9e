import { apiKeyCreateSchema, type ApiKey, type ApiKeyCreated } from '@sitewalk/proto';
import { createApiKey, listApiKeys, revokeApiKey } from '@sitewalk/core/services/api-keys.service.js';
import type { Context, Next } from 'koa';
import { refuseApiKey } from '../http/api-key-auth.js';
import { currentUser, requireAuth } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { body, idParam } from '../http/validate.js';
import type { RouteModule } from './types.js';

/** A key may not list, make or revoke keys: a leaked read key must not mint a read-write one. */
const signedInPerson = async (ctx: Context, next: Next) => {
  refuseApiKey(ctx);
  await next();
};

/** Personal API keys of the signed-in account (issue 24 "The open API"). */
const apiKeysRoutes: RouteModule = (r) => {
  r.get('/api-keys', requireAuth, signedInPerson, async (ctx) => {
    ok<ApiKey[]>(ctx, await listApiKeys(currentUser(ctx).id));
  });
  r.post('/api-keys', requireAuth, signedInPerson, async (ctx) => {
    const input = body(ctx, apiKeyCreateSchema);
    created<ApiKeyCreated>(ctx, await createApiKey(currentUser(ctx).id, input), 'API key created. Copy it now: it is not shown again.');
  });
  r.delete('/api-keys/:id', requireAuth, signedInPerson, async (ctx) => {
    ok<ApiKey>(ctx, await revokeApiKey(currentUser(ctx).id, idParam(ctx)), 'API key revoked. It no longer works.');
  });
};

export default apiKeysRoutes;
