import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { API_KEY_HEADER, envelopeSchema } from '@sitewalk/proto';
import { API_KEY_REQUESTS_PER_MINUTE } from '../http/api-key-auth.js';
import { ROUTE_CONTRACTS, type RouteAccess, type RouteContract } from './route-contracts.js';

/** A Koa route path (/projects/:id, /files/{*key}) in OpenAPI's form (/projects/{id}, /files/{key}). */
export const toOpenApiPath = (koaPath: string): string =>
  koaPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replace(/\{\*([A-Za-z_][A-Za-z0-9_]*)\}/g, '{$1}');

const pathParamNames = (koaPath: string): string[] => [...toOpenApiPath(koaPath).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** Ids in paths are positive integers (anything else answers 404); other parameters are text. */
function pathParams(koaPath: string): z.ZodObject | undefined {
  const names = pathParamNames(koaPath);
  if (!names.length) return undefined;
  const shape: Record<string, z.ZodType> = {};
  for (const n of names) shape[n] = n === 'id' ? z.coerce.number().int().positive().max(999_999_999) : z.string().min(1);
  return z.object(shape);
}

const SECURITY: Record<RouteAccess, Record<string, string[]>[]> = {
  public: [],
  optional: [{}, { session: [] }, { apiKey: [] }],
  user: [{ session: [] }, { apiKey: [] }],
  admin: [{ session: [] }, { apiKey: [] }],
};

const errorEnvelope = z.object({ status: z.literal('error'), message: z.string(), data: z.unknown() }).meta({
  examples: [{ status: 'error', message: 'This API key may only read. Use a read-write key to make changes.', data: null }],
});

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: errorEnvelope } } });

function operation(c: RouteContract): ZodOpenApiOperationObject {
  const query = c.query instanceof z.ZodObject ? c.query : undefined;
  const path = pathParams(c.path);
  const status = String(c.status ?? 200);
  const data = c.data ?? z.unknown().meta({ description: c.answers ? `The ${c.answers} of @sitewalk/proto.` : 'See the summary.' });
  const op: ZodOpenApiOperationObject = {
    operationId: `${c.method}${toOpenApiPath(c.path).replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
    summary: c.summary,
    tags: [c.tag],
    security: SECURITY[c.access],
    responses: {
      [status]: status === '204'
        ? { description: 'Done; no content.' }
        : { description: 'Success: the envelope {status, message, data}.', content: { 'application/json': { schema: envelopeSchema(data) } } },
      '400': errorResponse('The request is not valid; the message says which field and why.'),
      ...(c.access !== 'public' && c.access !== 'optional' ? { '401': errorResponse('Not signed in, or the session or API key is not valid.') } : {}),
      ...(c.access === 'admin' ? { '403': errorResponse('Only administrators may do this (or a read key tried to change something).') } : {}),
      '404': errorResponse('No such object, or not one this account may see.'),
      '429': errorResponse('Too many requests; Retry-After says when to try again.'),
    },
  };
  if (query || path) op.requestParams = { ...(query ? { query } : {}), ...(path ? { path } : {}) };
  if (c.upload === 'multipart') {
    const fields = c.fields instanceof z.ZodObject ? c.fields : z.object({});
    op.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: fields.extend({ file: z.string().meta({ format: 'binary', description: 'The file.' }) }) } },
    };
  } else if (c.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: c.body, ...(c.example !== undefined ? { example: c.example } : {}) } },
    };
  }
  return op;
}

/** The OpenAPI 3.1 document of the whole API, built from the route contracts and proto's zod schemas. */
export function buildOpenApiDocument(contracts: RouteContract[] = ROUTE_CONTRACTS) {
  const paths: ZodOpenApiPathsObject = {};
  for (const c of contracts) {
    const p = toOpenApiPath(c.path);
    paths[p] ??= {};
    (paths[p] as Record<string, ZodOpenApiOperationObject>)[c.method] = operation(c);
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'SiteWalk API',
        version: '1.0.0',
        description:
          'Every call answers the envelope {status, message, data}. Authenticate with a session token or a personal API key ' +
          `(Profile → API keys) as \`Authorization: Bearer …\`, or with the key in \`X-Api-Key\`. A key acts as its owner with the same rights; ` +
          `a read key may only use GET. Each key may make ${API_KEY_REQUESTS_PER_MINUTE} requests a minute.`,
      },
      servers: [{ url: '/api' }],
      components: {
        securitySchemes: {
          session: { type: 'http', scheme: 'bearer', description: 'A session token from POST /login, or a personal API key (sw_…).' },
          apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'A personal API key (sw_…) or the site-wide key of the settings.' },
        },
      },
      paths,
    },
    {
      // Dates and other values that JSON carries as text, and custom checks, have no JSON Schema of their own.
      allowEmptySchema: { custom: true, any: true, unknown: true },
    },
  );
}

let cached: ReturnType<typeof buildOpenApiDocument> | null = null;
/** The document, built once per process (it changes only with the code). */
export function openApiDocument() {
  return (cached ??= buildOpenApiDocument());
}
