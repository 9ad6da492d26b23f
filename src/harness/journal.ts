import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { isInnerRequest } from '../platform/inner-request.js';
import { isSecretName, redacted, redactHeaders, redactValue } from '../platform/redaction.js';
import { pathOf } from './faults.js';

/** One request a service answered, as the journal keeps it (secrets replaced by `[redacted]`). */
export interface JournalEntry {
  /** Increases by one per request of the service, so a poller can ask for what came after the last it saw. */
  seq: number;
  /** When the request arrived (ISO 8601). */
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  /** From arrival to the last byte handed to the socket, injected delay included. */
  durationMs: number;
  requestId: string;
  headers: Record<string, string | string[]>;
  /** Why the answer was altered: `delay 120 ms`, `status 503 (header)`… */
  fault?: string;
  /** Only with BACKLOT_JOURNAL_BODIES=1: the parsed request body and the answer's body (JSON parsed, else text). */
  requestBody?: unknown;
  responseBody?: unknown;
}

export interface JournalSettings {
  size: number;
  bodies: boolean;
}

/** Bodies whose text is longer are kept as their size only, requests and answers alike. */
const maxBodyText = 64 * 1024;

export function queryOf(url: string | undefined): Record<string, string | string[]> {
  const start = url?.indexOf('?') ?? -1;
  const query: Record<string, string | string[]> = {};
  if (!url || start === -1) return query;
  for (const [key, value] of new URLSearchParams(url.slice(start + 1))) {
    const shown = isSecretName(key) ? redacted : value;
    const seen = query[key];
    query[key] = seen === undefined ? shown : Array.isArray(seen) ? [...seen, shown] : [seen, shown];
  }
  return query;
}

/** An answer's body as the journal shows it: parsed and redacted JSON, text, or a size for bytes and streams. */
export function bodyOf(payload: unknown): unknown {
  if (payload === null || payload === undefined) return undefined;
  if (typeof payload === 'string') {
    if (payload.length > maxBodyText) return `[${payload.length} characters]`;
    try {
      return redactValue(JSON.parse(payload));
    } catch {
      return payload;
    }
  }
  if (Buffer.isBuffer(payload)) return `[${payload.length} bytes]`;
  return '[stream]';
}

/**
 * A request's parsed body as the journal keeps it: redacted, or only its size when over the cap, as answers are
 * (200 entries of 1 MiB bodies would otherwise hold 200 MiB). A declared length says so before anything is copied.
 */
export function requestBodyOf(body: unknown, contentLength: string | undefined): unknown {
  if (body === undefined || body === null) return body ?? undefined;
  const declared = Number(contentLength);
  if (declared > maxBodyText) return `[${declared} bytes]`;
  if (typeof body === 'string') return body.length > maxBodyText ? `[${body.length} characters]` : body;
  const kept = redactValue(body);
  if (contentLength !== undefined) return kept;
  // Sent in chunks, of no declared length: measured as the text it would be shown as.
  const length = JSON.stringify(kept)?.length ?? 0;
  return length > maxBodyText ? `[${length} characters]` : kept;
}

/**
 * What the hot path hands the journal: the request's own headers object and URL, unparsed. Redaction and parsing
 * happen when someone reads the journal, not on every request. Bodies (opt-in) arrive already redacted.
 */
export interface RecordedRequest {
  /**
   * 0 when handed over: the journal numbers the entry as it keeps it. The field is there from the start because
   * adding a property to an object literal afterwards gives every entry a second allocation.
   */
  seq: number;
  /** Arrival, as `performance.now()` (made a date when the journal is read). */
  arrived: number;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  requestId: string;
  headers: IncomingHttpHeaders;
  fault?: string;
  requestBody?: unknown;
  responseBody?: unknown;
}

/** Constant for the life of the process; the getter is not free, so it is read once. */
const timeOrigin = performance.timeOrigin;

function entryOf(stored: RecordedRequest, bodies: boolean): JournalEntry {
  const entry: JournalEntry = {
    seq: stored.seq,
    time: new Date(timeOrigin + stored.arrived).toISOString(),
    method: stored.method,
    path: pathOf(stored.url),
    query: queryOf(stored.url),
    status: stored.status,
    durationMs: Math.round(stored.durationMs * 10) / 10,
    requestId: stored.requestId,
    headers: redactHeaders(stored.headers),
    fault: stored.fault,
  };
  if (bodies) Object.assign(entry, { requestBody: stored.requestBody, responseBody: stored.responseBody });
  return entry;
}

/** The last `size` requests of one service, oldest first. */
export class ServiceJournal {
  private entries: RecordedRequest[] = [];
  private next = 0;
  private seq = 0;

  constructor(readonly settings: JournalSettings) {}

  add(request: RecordedRequest) {
    if (this.settings.size === 0) return;
    request.seq = ++this.seq;
    if (this.entries.length < this.settings.size) this.entries.push(request);
    else this.entries[this.next] = request;
    this.next = (this.next + 1) % this.settings.size;
  }

  /** Oldest first; `after` keeps only entries with a larger `seq`. */
  list(after = 0): JournalEntry[] {
    const ordered =
      this.entries.length < this.settings.size
        ? this.entries
        : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    return ordered.filter((e) => e.seq > after).map((e) => entryOf(e, this.settings.bodies));
  }

  clear() {
    this.entries = [];
    this.next = 0;
  }
}

/** Health probes and the docs pages would crowd out the requests a developer wants to see. */
export function journalled(url: string | undefined): boolean {
  const path = pathOf(url);
  return !(
    path === '/healthz' ||
    path === '/readyz' ||
    path === '/openapi.json' ||
    path === '/docs' ||
    path.startsWith('/docs/')
  );
}

const responseBody = Symbol('backlot.responseBody');

/** When requests that waited before reaching Fastify (a fast-path delay) arrived, so their duration includes it. */
export const arrivedAt = new WeakMap<object, number>();

/** Records every request Fastify answers (the fast path records its own, see service-harness.ts). */
export function installJournal(
  app: FastifyInstance,
  journal: ServiceJournal,
  faultOf: (raw: IncomingMessage) => string | undefined,
) {
  if (journal.settings.size === 0) return;
  const { bodies } = journal.settings;
  if (bodies) {
    app.addHook('onSend', (request, _reply, payload, done) => {
      (request as unknown as Record<symbol, unknown>)[responseBody] = bodyOf(payload);
      done(null, payload);
    });
  }
  app.addHook('onResponse', (request, reply, done) => {
    const raw = request.raw;
    // A sub-request the service makes of itself is part of the outer request's entry.
    if (journalled(raw.url) && !isInnerRequest(raw)) {
      // One clock read: arrival is now minus the elapsed time, unless the fast path saw the request arrive.
      const now = performance.now();
      const arrived = arrivedAt.get(raw) ?? now - reply.elapsedTime;
      const durationMs = now - arrived;
      journal.add({
        seq: 0,
        arrived,
        method: request.method,
        url: raw.url ?? '/',
        status: reply.statusCode,
        durationMs,
        requestId: request.id,
        headers: request.headers,
        fault: faultOf(raw),
        ...(bodies
          ? {
              requestBody: requestBodyOf(request.body, request.headers['content-length']),
              responseBody: (request as unknown as Record<symbol, unknown>)[responseBody],
            }
          : {}),
      });
    }
    done();
  });
}
