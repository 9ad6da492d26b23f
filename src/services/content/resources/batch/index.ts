import { Type } from '@sinclair/typebox';
import type { FastifyRequest, LightMyRequestResponse } from 'fastify';
import { restErrorBody } from '../../errors.js';
import { envelopeHeaders } from '../../rest-headers.js';
import type { UserRow } from '../../store.js';
import { type Call, defineResource, type MatchedRoute, type RestRouter } from '../contract.js';
import { asBatchCaller, VALID_HEADER, validateOnlyHeaders } from './inner.js';
import { batchArguments, type SubRequest } from './validate.js';

// WordPress 6.1's `/batch/v1` (WP_REST_Server::serve_batch_request_v1): up to 25 writes in one request, each
// routed, checked and answered as if sent alone, as `{responses: [{body, status, headers}]}` with 207. Only
// routes whose endpoints say `allow_batch` (posts, pages, terms, menus, menu items; WordPress's recorded route
// descriptions carry the flag) take part. Sub-requests go through content's own routes in process (inject).

type Envelope = { body: unknown; status: number; headers: Record<string, unknown> | [] };

/** An error as core's error_to_response + envelope_response word it. */
const errorEnvelope = (
  status: number,
  code: string,
  message: string,
  headers: Envelope['headers'] = [],
): Envelope => ({ body: restErrorBody(status, code, message), status, headers });

/** wp_parse_url's path and query; undefined where it fails (`http:///x`). */
function parsePath(path: string): { path: string; query: string } | undefined {
  if (/^[a-z][a-z\d+.-]*:\/\/\//i.test(path)) return undefined;
  const local = path.replace(/^([a-z][a-z\d+.-]*:)?\/\/[^/?#]*/i, '').split('#', 1)[0] ?? '';
  const mark = local.indexOf('?');
  return mark === -1
    ? { path: local, query: '' }
    : { path: local.slice(0, mark), query: local.slice(mark + 1) };
}

/** What one sub-request resolves to before anything runs: the route to send it to, or core's refusal. */
type Planned =
  | { request: SubRequest; path: string; query: string; matched: MatchedRoute }
  | { request: SubRequest; refusal: Envelope; matched?: MatchedRoute; query?: string };

function plan(request: SubRequest, rest: RestRouter): Planned {
  const parsed = parsePath(request.path);
  if (!parsed)
    // WordPress 6.1 means to answer this (its code then fails with a 500); backlot answers it.
    return { request, refusal: errorEnvelope(400, 'parse_path_failed', 'Could not parse the path.') };
  const matched = rest.match(parsed.path);
  const endpoint = matched?.spec.endpoints.find((e) => e.methods.includes(request.method));
  if (!matched || !endpoint)
    return {
      request,
      refusal: errorEnvelope(404, 'rest_no_route', 'No route was found matching the URL and request method.'),
    };
  const allowBatch = endpoint.allow_batch as { v1?: boolean } | undefined;
  if (!allowBatch?.v1)
    return {
      request,
      matched,
      query: parsed.query,
      refusal: errorEnvelope(
        400,
        'rest_batch_not_allowed',
        'The requested route does not support batch requests.',
      ),
    };
  return { request, path: parsed.path, query: parsed.query, matched };
}

/** Headers of the batch request a sub-request keeps: the site's address as the client reached it. */
const carried = ['host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded'];

/** Runs one sub-request through content's routes (validation, permission, handler, Allow) in process. */
function send(
  outer: FastifyRequest,
  planned: Extract<Planned, { path: string }>,
  marks: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const { request, path, query } = planned;
  const params = new URLSearchParams(query);
  // Sub-responses are never embedded or enveloped (envelope_response( $result, false )).
  params.delete('_embed');
  params.delete('_envelope');
  const search = params.toString();
  const headers: Record<string, string> = { ...marks };
  for (const name of carried) {
    const value = outer.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (request.body) headers['content-type'] = 'application/json';
  return outer.server.inject({
    method: request.method,
    url: `/wp-json${path.replace(/[^\x21-\x7e]|[%"<>\\^`{|}]/gu, (c) => (c === '%' ? c : encodeURIComponent(c)))}${search ? `?${search}` : ''}`,
    headers,
    ...(request.body ? { payload: JSON.stringify(request.body) } : {}),
    remoteAddress: outer.socket.remoteAddress,
  });
}

/** A sub-response as envelope_response words it: the body, its status and the response's own headers. */
function envelopeOf(response: LightMyRequestResponse): Envelope {
  const headers: Record<string, unknown> = {};
  for (const [name, wpName] of Object.entries(envelopeHeaders)) {
    let value = response.headers[name];
    if (value === undefined) continue;
    // The API discovery link is the server's, not the response's.
    if (name === 'link')
      value = String(value)
        .split(', ')
        .filter((l) => !l.includes('rel="https://api.w.org/"'))
        .join(', ');
    if (value !== '') headers[wpName] = name.startsWith('x-wp-total') ? Number(value) : String(value);
  }
  let body: unknown = null;
  if (response.payload !== '')
    try {
      body = JSON.parse(response.payload);
    } catch {
      body = response.payload;
    }
  return { body, status: response.statusCode, headers: Object.keys(headers).length > 0 ? headers : [] };
}

/** A refusal made here (not by the route): `rest_batch_not_allowed` carries the route's Allow, as core's does. */
async function refusalOf(
  planned: Extract<Planned, { refusal: Envelope }>,
  me: UserRow | undefined,
  rest: RestRouter,
): Promise<Envelope> {
  if (!planned.matched) return planned.refusal;
  const query = Object.fromEntries(new URLSearchParams(planned.query ?? ''));
  const methods = await rest.allowed(planned.matched, me, 'view', query);
  return { ...planned.refusal, headers: methods.length > 0 ? { Allow: methods.join(', ') } : ([] as []) };
}

async function serveBatch({ body, me, request, reply, rest }: Call) {
  const { mode, requests } = batchArguments(body);
  const planned = requests.map((r) => plan(r, rest));
  reply.status(207);
  return asBatchCaller(me, async (marks) => {
    if (mode === 'require-all-validate') {
      // Core validates every request first and runs none if one fails: the failures, `null` for the others.
      let failed = false;
      const checked: (Envelope | null)[] = [];
      for (const item of planned) {
        if ('refusal' in item) {
          failed = true;
          checked.push(item.refusal);
          continue;
        }
        const answer = await send(request, item, { ...marks, ...validateOnlyHeaders });
        if (answer.statusCode === 204 && answer.headers[VALID_HEADER]) checked.push(null);
        else {
          failed = true;
          checked.push({ ...envelopeOf(answer), headers: [] });
        }
      }
      if (failed) return { failed: 'validation', responses: checked };
    }
    const responses: Envelope[] = [];
    for (const item of planned)
      responses.push(
        'refusal' in item ? await refusalOf(item, me, rest) : envelopeOf(await send(request, item, marks)),
      );
    return { responses };
  });
}

export const batchResource = defineResource({
  name: 'batch',
  routes: [
    {
      path: '/batch/v1',
      endpoints: [
        {
          methods: ['POST'],
          summary: 'Up to 25 writes in one request, each answered as if sent alone (207)',
          response: Type.Unknown(),
          status: 207,
          // Described here for the index (WordPress's recorded description replaces it); checked in batchArguments.
          args: {
            validation: {
              description:
                'normal runs every request; require-all-validate runs none unless all pass validation.',
              type: 'string',
              enum: ['require-all-validate', 'normal'],
              default: 'normal',
              required: false,
            },
            requests: {
              description: 'The requests, each {method, path, body, headers}, answered in this order.',
              type: 'array',
              maxItems: 25,
              items: { type: 'object' },
              required: true,
            },
          },
          // Anyone may send a batch; each request in it is checked as its route checks it.
          check: () => undefined,
          handle: serveBatch,
        },
      ],
    },
  ],
});
