import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';

/** A small deterministic PRNG (mulberry32), so every failing case can be replayed from its seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof prng>;

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  nullable?: boolean;
};

/** Values that have broken servers before: each is tried where a scalar goes. */
export const nastyValues: unknown[] = [
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '\u0000\u0001\u001f',
  '\u202e\ud83d\ude00 ünïcødé 漢字',
  '\ud800',
  '<script>alert(1)</script>',
  '{"$gt": ""}',
  'x'.repeat(10_000),
  0,
  -1,
  -0,
  1.5,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 63),
  1e308,
  true,
  false,
  null,
  [],
  {},
  [[[[[]]]]],
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
];

const pathNasties = [
  '0',
  '-1',
  '1.5',
  'abc',
  '99999999999999999999',
  '%27%20OR%201%3D1',
  '..%2F..',
  '%00',
  '%F0%9F%98%80',
  'null',
  ' ',
  '1e3',
];

/** A valid-looking value for a JSON schema (not exhaustive: enough to get past validation most of the time). */
export function sample(schema: Schema | undefined, rnd: Random, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return rnd.pick(schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sample(rnd.pick(alternatives), rnd, depth + 1);
  const type = Array.isArray(schema.type) ? rnd.pick(schema.type) : schema.type;
  switch (type) {
    case 'integer': {
      const min = schema.minimum ?? 1;
      const max = schema.maximum ?? Math.max(min, 100);
      return min + rnd.int(Math.max(1, Math.min(max - min + 1, 1000)));
    }
    case 'number':
      return (schema.minimum ?? 0) + rnd.next() * 100;
    case 'boolean':
      return rnd.chance(0.5);
    case 'string': {
      if (schema.format === 'email') return `user${rnd.int(1e6)}@example.com`;
      if (schema.format === 'uri') return `https://example.com/${rnd.int(1e6)}`;
      if (schema.format === 'date-time') return new Date(1_700_000_000_000 + rnd.int(1e9)).toISOString();
      const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 12));
      return Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz'[rnd.int(26)]).join('');
    }
    case 'array':
      return Array.from({ length: rnd.int(3) }, () => sample(schema.items, rnd, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || rnd.chance(0.5)) out[key] = sample(child, rnd, depth + 1);
      }
      return out;
    }
    case 'null':
      return null;
    default:
      return 'x';
  }
}

/** A mutated copy of a valid body: a field wrong, missing or extra, or the whole body replaced. */
function mutateBody(valid: unknown, schema: Schema | undefined, rnd: Random): unknown {
  const fields = Object.keys(schema?.properties ?? {});
  const body = valid && typeof valid === 'object' && !Array.isArray(valid) ? { ...(valid as object) } : {};
  const roll = rnd.int(6);
  if (roll === 0 && fields.length > 0) {
    (body as Record<string, unknown>)[rnd.pick(fields)] = rnd.pick(nastyValues);
    return body;
  }
  if (roll === 1 && fields.length > 0) {
    delete (body as Record<string, unknown>)[rnd.pick(fields)];
    return body;
  }
  if (roll === 2) {
    (body as Record<string, unknown>)[rnd.pick(['extra', 'id', '__proto__', 'constructor', 'ünï'])] =
      rnd.pick(nastyValues);
    return body;
  }
  if (roll === 3) return rnd.pick(nastyValues);
  if (roll === 4) {
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i++) deep = [deep];
    return fields.length > 0 ? { ...body, [rnd.pick(fields)]: deep } : deep;
  }
  return body;
}

/** Raw bodies that are not what the content type says. */
const rawBodies: Array<{ contentType?: string; payload: string }> = [
  { contentType: 'application/json', payload: '{"a": ' },
  { contentType: 'application/json', payload: '{"a": NaN}' },
  { contentType: 'application/json', payload: '{"a": 1e999999}' },
  { contentType: 'application/json', payload: '' },
  { contentType: 'application/json', payload: 'null' },
  { contentType: 'application/json', payload: '\u0000\u0001' },
  { contentType: 'application/json', payload: '{"__proto__": {"admin": true}}' },
  { contentType: 'application/json; charset=latin1', payload: '{}' },
  { contentType: 'text/plain', payload: 'hello' },
  { contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=2' },
  { contentType: 'multipart/form-data; boundary=x', payload: '--x\r\nbroken' },
  { contentType: 'application/xml', payload: '<a/>' },
  { payload: 'no content type' },
];

export interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  body?: Schema;
}

/** Every operation of an OpenAPI 3 document. */
export function operations(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return ops;
}

export interface FuzzCase {
  seed: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function buildUrl(op: Operation, rnd: Random, mutate: boolean) {
  const url = op.path.replace(/\{([^}]+)\}/g, (_m, name) => {
    const param = op.parameters.find((p) => p.in === 'path' && p.name === name);
    return mutate && rnd.chance(0.5)
      ? rnd.pick(pathNasties)
      : encodeURIComponent(String(sample(param?.schema, rnd)));
  });
  const query = new URLSearchParams();
  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    if (!p.required && rnd.chance(0.5)) continue;
    const value = mutate && rnd.chance(0.4) ? rnd.pick(nastyValues) : sample(p.schema, rnd);
    query.append(p.name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  if (mutate && rnd.chance(0.2))
    query.append(rnd.pick(['_limit', 'page', 'per_page', 'x']), rnd.pick(pathNasties));
  const qs = query.toString();
  return qs ? `${url}?${qs}` : url;
}

/** The `index`th case for an operation: the first ones are valid, then mutated ones. */
export function makeCase(op: Operation, seed: number, authHeaders: Record<string, string>): FuzzCase {
  const rnd = prng(seed);
  const mutate = rnd.chance(0.8);
  const headers: Record<string, string> = rnd.chance(0.85) ? { ...authHeaders } : {};
  const url = buildUrl(op, rnd, mutate);
  if (!['POST', 'PUT', 'PATCH'].includes(op.method) && !(mutate && rnd.chance(0.1))) {
    return { seed, method: op.method, url, headers };
  }
  if (mutate && rnd.chance(0.25)) {
    const raw = rnd.pick(rawBodies);
    if (raw.contentType) headers['content-type'] = raw.contentType;
    return { seed, method: op.method, url, headers, payload: raw.payload };
  }
  if (mutate && rnd.chance(0.03)) {
    headers['content-type'] = 'application/json';
    return {
      seed,
      method: op.method,
      url,
      headers,
      payload: JSON.stringify({ big: 'x'.repeat(3 * 1024 * 1024) }),
    };
  }
  const valid = sample(op.body ?? { type: 'object' }, rnd);
  const body = mutate ? mutateBody(valid, op.body, rnd) : valid;
  headers['content-type'] = 'application/json';
  return { seed, method: op.method, url, headers, payload: JSON.stringify(body) };
}

export interface FuzzOptions {
  app: FastifyInstance;
  /** Headers that authenticate as a caller allowed to do everything (most cases send them). */
  authHeaders?: Record<string, string>;
  /** Cases per operation. */
  casesPerOperation: number;
  seed: number;
  /** True when a 4xx body is in the service's documented error shape. */
  isErrorShape(status: number, body: unknown, fuzzCase: FuzzCase): boolean;
  /** Operations to leave out (e.g. ones that would delete the credentials used). */
  skip?: (op: Operation) => boolean;
  /** Longest a single request may take. */
  maxMs?: number;
  /**
   * A 5xx the service documents on purpose, not a failure: WordPress's 501 `rest_trash_not_supported`, or the 500
   * `plugins_api_failed` an offline WordPress answers a plugin install with.
   */
  deliberate5xx?: (status: number, body: unknown) => boolean;
}

/**
 * Sends generated requests built from the service's own OpenAPI document and asserts, for every one: no 5xx,
 * an answer within `maxMs`, the documented error shape on 4xx, and the service still healthy afterwards.
 */
export async function fuzzService(options: FuzzOptions) {
  const doc = (await options.app.inject({ url: '/openapi.json' })).json();
  const ops = operations(doc).filter((op) => !options.skip?.(op));
  assert.ok(ops.length > 0, 'the OpenAPI document lists operations');
  const statuses = new Map<number, number>();
  let count = 0;
  for (const [i, op] of ops.entries()) {
    for (let n = 0; n < options.casesPerOperation; n++) {
      const fuzzCase = makeCase(op, options.seed * 1_000_003 + i * 10_007 + n, options.authHeaders ?? {});
      const started = performance.now();
      const res = await options.app.inject({
        method: fuzzCase.method as 'GET',
        url: fuzzCase.url,
        headers: fuzzCase.headers,
        payload: fuzzCase.payload,
      });
      const ms = performance.now() - started;
      const replay = `replay: ${op.method} ${op.path} seed ${fuzzCase.seed} -> ${fuzzCase.method} ${fuzzCase.url.slice(0, 200)}`;
      const deliberate =
        res.statusCode >= 500 && options.deliberate5xx?.(res.statusCode, JSON.parse(res.body));
      assert.ok(
        res.statusCode < 500 || deliberate,
        `${res.statusCode} ${res.body.slice(0, 300)} (${replay})`,
      );
      assert.ok(ms < (options.maxMs ?? 5000), `took ${Math.round(ms)} ms (${replay})`);
      if (res.statusCode >= 400 && res.statusCode !== 405) {
        let body: unknown;
        try {
          body = res.body === '' ? undefined : res.json();
        } catch {
          body = res.body;
        }
        assert.ok(
          options.isErrorShape(res.statusCode, body, fuzzCase),
          `error shape for ${res.statusCode}: ${res.body.slice(0, 300)} (${replay})`,
        );
      }
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      count++;
    }
  }
  const health = await options.app.inject({ url: '/readyz' });
  assert.equal(health.statusCode, 200, 'still ready after fuzzing');
  return { count, operations: ops.length, statuses: Object.fromEntries(statuses) };
}
