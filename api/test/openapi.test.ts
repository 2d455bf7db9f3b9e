import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { apiRouter } from '../src/routes/index.js';
import { buildOpenApiDocument, toOpenApiPath } from '../src/openapi/document.js';
import { ROUTE_CONTRACTS } from '../src/openapi/route-contracts.js';
import { api } from './helpers.js';

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'];

/** Every (method, path) the Koa router answers, in OpenAPI's form ('HEAD' beside 'GET' is Koa's own). */
function routerOperations(): string[] {
  const out = new Set<string>();
  for (const layer of apiRouter().stack) {
    const methods = layer.methods.map((m) => m.toLowerCase());
    const own = methods.length > 1 ? methods.filter((m) => m !== 'head') : methods;
    for (const m of own) out.add(`${m} ${toOpenApiPath(String(layer.path).replace(/^\/api/, ''))}`);
  }
  return [...out].sort();
}

function documentOperations(doc: Json): string[] {
  const out: string[] = [];
  for (const [p, item] of Object.entries(doc.paths as Json)) {
    for (const m of Object.keys(item as Json)) if (METHODS.includes(m)) out.push(`${m} ${p}`);
  }
  return out.sort();
}

/** Every example in the document with the schema it illustrates: media examples, and `examples` of schema objects. */
function examplesWithSchemas(node: unknown, at: string, found: { at: string; schema: unknown; value: unknown }[] = []) {
  if (Array.isArray(node)) node.forEach((n, i) => examplesWithSchemas(n, `${at}[${i}]`, found));
  else if (node && typeof node === 'object') {
    const o = node as Json;
    if ('schema' in o && 'example' in o) found.push({ at, schema: o.schema, value: o.example });
    if ('schema' in o && o.examples && typeof o.examples === 'object' && !Array.isArray(o.examples)) {
      for (const [name, ex] of Object.entries(o.examples as Json)) found.push({ at: `${at}.examples.${name}`, schema: o.schema, value: (ex as Json).value });
    }
    // JSON Schema 2020's `examples` (what zod's .meta({ examples }) becomes): each must pass the schema it sits in.
    if (Array.isArray(o.examples) && ('type' in o || 'properties' in o || 'anyOf' in o)) {
      o.examples.forEach((value, i) => found.push({ at: `${at}.examples[${i}]`, schema: o, value }));
    }
    for (const [k, v] of Object.entries(o)) examplesWithSchemas(v, `${at}.${k}`, found);
  }
  return found;
}

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument() as unknown as Json;

  it('is OpenAPI 3.1 and describes every route the API registers, and nothing else', () => {
    expect(doc.openapi).toBe('3.1.0');
    const registered = routerOperations();
    const documented = documentOperations(doc);
    expect(registered.length).toBeGreaterThan(150);
    expect(registered.filter((r) => !documented.includes(r)), 'routes missing from the document (add them to api/src/openapi/route-contracts.ts)').toEqual([]);
    expect(documented.filter((d) => !registered.includes(d)), 'documented routes the router does not have').toEqual([]);
  });

  it('takes its request schemas from proto: a documented body refuses what the route refuses', () => {
    const create = (doc.paths as Json)['/api-keys'] as Json;
    const schema = (((create.post as Json).requestBody as Json).content as Json)['application/json'] as Json;
    const body = schema.schema as Json;
    expect(body.required).toEqual(['name', 'scope']);
    expect((body.properties as Json).scope).toMatchObject({ enum: ['read', 'read-write'] });
  });

  it('every example in it validates against its schema, and every request example passes the route’s own zod schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats.default(ajv);
    const examples = examplesWithSchemas(doc, '#');
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const { at, schema, value } of examples) {
      const validate = ajv.compile(schema as object);
      expect(validate(value), `${at}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    for (const c of ROUTE_CONTRACTS.filter((x) => x.example !== undefined)) {
      expect(c.body, `${c.method} ${c.path} has an example but no body schema`).toBeDefined();
      expect(c.body!.safeParse(c.example).success, `${c.method} ${c.path}`).toBe(true);
    }
  });

  it('is served at /api/openapi.json and rendered at /api/docs from this server only', async () => {
    const json = await api().get('/api/openapi.json');
    expect(json.status).toBe(200);
    expect(json.body.openapi).toBe('3.1.0');
    expect(Object.keys(json.body.paths)).toContain('/projects/{id}');

    const page = await api().get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html');
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const src of sources) {
      expect(src.startsWith('/api/docs/'), src).toBe(true);
      expect((await api().get(src)).status, src).toBe(200);
    }
    expect((await api().get('/api/docs/init.js')).text).toContain("url: '/api/openapi.json'");
    expect((await api().get('/api/docs/package.json')).status).toBe(404);
    expect((await api().get('/api/docs/..%2F..%2Fpackage.json')).status).toBe(404);
  });
});
