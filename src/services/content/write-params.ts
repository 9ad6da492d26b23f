import type { FastifyReply, FastifyRequest } from 'fastify';
import { pickItemFields } from './embed-param.js';
import { fieldList, sendFields } from './http.js';

// Two things WP_REST_Request does for every write: its parameters are the body's over the query string's
// (get_params), so `POST /posts?title=x` with no body creates "x"; and `_fields` trims the answer of a write as
// of a read (the controllers read it through get_fields_for_response either way).

const writes = new Set(['POST', 'PUT', 'PATCH']);

type Schema = { properties?: Record<string, unknown>; anyOf?: Schema[] };

/** The parameters a route's body schema names (each branch of a union). */
function bodyParams(schema: Schema | undefined): Set<string> {
  const names = new Set<string>();
  if (!schema || typeof schema !== 'object') return names;
  for (const name of Object.keys(schema.properties ?? {})) names.add(name);
  for (const branch of schema.anyOf ?? []) for (const name of bodyParams(branch)) names.add(name);
  return names;
}

/** preValidation: the query string's parameters the body could carry fill in the ones it does not. */
export function mergeQueryIntoWrite(request: FastifyRequest) {
  if (!writes.has(request.method)) return;
  const body = request.body;
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || !body || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return;
  const params = bodyParams(request.routeOptions.schema?.body as Schema | undefined);
  const fields = body as Record<string, unknown>;
  for (const [name, value] of Object.entries(query))
    if (params.has(name) && !(name in fields)) fields[name] = value;
}

/** preSerialization: a successful write's answer keeps only the `_fields` asked for (and `_links` if named). */
export async function pickWriteFields(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (!writes.has(request.method) || reply.statusCode >= 300) return payload;
  const fields = fieldList(
    (request.query as Record<string, unknown> | undefined)?._fields as string | undefined,
  );
  if (!fields?.length || !payload || typeof payload !== 'object' || Array.isArray(payload)) return payload;
  sendFields(reply, fields);
  return pickItemFields(request, payload, fields);
}
