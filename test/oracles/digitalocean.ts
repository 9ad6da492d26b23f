// DigitalOcean's OpenAPI document as an Ajv validator.
import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const documentPath = new URL('./digitalocean-openapi.json', import.meta.url);

type Json = Record<string, unknown>;

/**
 * OpenAPI 3.0 is not JSON Schema: `nullable: true` becomes a union with null, local `$ref`s are made absolute so
 * any sub-schema compiles on its own, and `discriminator` (which Ajv reads differently) is dropped.
 */
function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'discriminator' || key === 'example' || key === 'examples') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out[key] = `do${value}`;
    else out[key] = rewrite(value);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string' && !out.$ref && !out.allOf && !out.anyOf && !out.oneOf) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

function loadDocument(): Json {
  const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Json;
  return { ...(rewrite(document) as Json), $id: 'do' };
}

const document = loadDocument();
// The document's patterns are ECMA-262 without the u flag (`\:` is an error with it).
const ajv = addFormats.default(new Ajv.default({ strict: false, allErrors: true, unicodeRegExp: false }));
ajv.addSchema(document);

const cache = new Map<string, ValidateFunction | null>();

function pointer(ref: string): unknown {
  const parts = ref.replace(/^do#\//, '').split('/');
  let node: unknown = document;
  for (const part of parts) node = (node as Json)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  return node;
}

/** The validator of one documented response: the status's own, else `default`; null when it has no body. */
function validatorFor(method: string, path: string, status: number): ValidateFunction | null {
  const key = `${method} ${path} ${status}`;
  if (cache.has(key)) return cache.get(key) ?? null;
  const operation = ((document.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as
    | Json
    | undefined;
  if (!operation) throw new Error(`the document has no operation ${method} ${path}`);
  const responses = operation.responses as Json;
  let response = (responses[String(status)] ?? responses.default) as Json | undefined;
  if (!response) throw new Error(`${method} ${path} documents no ${status} and no default`);
  while (typeof response.$ref === 'string') response = pointer(response.$ref) as Json;
  const content = response.content as Json | undefined;
  const schema = (content?.['application/json'] as Json | undefined)?.schema;
  const validate = schema ? ajv.compile(schema as Json) : null;
  cache.set(key, validate);
  return validate;
}

/** Throws with Ajv's errors when `body` is not what the document says `METHOD path` answers with `status`. */
export function assertMatchesOracle(method: string, path: string, status: number, body: unknown): void {
  const validate = validatorFor(method, path, status);
  if (!validate) {
    if (body !== '' && body !== undefined && body !== null)
      throw new Error(`${method} ${path} ${status} documents no body, got ${JSON.stringify(body)}`);
    return;
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ');
    throw new Error(`${method} ${path} ${status} does not match the document: ${errors}`);
  }
}

export const documentedPaths = () => Object.keys(document.paths as Json);

const methods = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of the document as "METHOD /path/{template}". */
export const documentedOperations = (): string[] =>
  Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => methods.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );

/**
 * docs/machines.md's "Left out" list: operation → reason, one `` - `METHOD /v2/…`: reason `` a line. Throws on a
 * line it cannot read or an operation listed twice, so the list stays one a line.
 */
export function leftOutOperations(): Map<string, string> {
  const docs = readFileSync(new URL('../../docs/machines.md', import.meta.url), 'utf8');
  const section = docs.split(/^### Left out$/m)[1]?.split(/^#/m)[0] ?? '';
  const leftOut = new Map<string, string>();
  for (const line of section.split('\n')) {
    const m = /^- `((?:GET|POST|PUT|PATCH|DELETE) \/v2\/\S*)`: (.+)$/.exec(line);
    if (m) {
      if (leftOut.has(m[1] as string)) throw new Error(`${m[1]} is listed twice in "Left out"`);
      leftOut.set(m[1] as string, m[2] as string);
    } else if (line.startsWith('- ')) throw new Error(`unreadable line in "Left out": ${line}`);
  }
  return leftOut;
}
