import type { IncomingMessage, ServerResponse } from 'node:http';
// Imported: the global `performance` is a lazy getter that runs on every read.
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GlobalSettings } from '../config.js';
import type { HttpError } from '../platform/errors.js';
import type { RequestWrapper } from '../platform/http.js';
import { isInnerRequest } from '../platform/inner-request.js';
import { exempt, type FaultDecision, FaultHeaders, type FaultRule, pathOf, ServiceFaults } from './faults.js';
import { arrivedAt, installJournal, journalled, ServiceJournal } from './journal.js';

/** What the test harness adds to one running service: its faults and its request journal. */
export interface ServiceHarness {
  faults: ServiceFaults;
  journal: ServiceJournal;
}

/** A fresh harness for one service: `rule` from its settings, `headers` shared by the services of one process. */
export function newServiceHarness(
  rule: FaultRule,
  global: Pick<GlobalSettings, 'faultHeaders' | 'journalSize' | 'journalBodies'>,
  headers = new FaultHeaders(global.faultHeaders),
): ServiceHarness {
  return {
    faults: new ServiceFaults(rule, headers),
    journal: new ServiceJournal({ size: global.journalSize, bodies: global.journalBodies }),
  };
}

const faultNotes = new WeakMap<IncomingMessage, string>();

const noteOf = (decision: FaultDecision) => {
  const parts: string[] = [];
  if (decision.delayMs > 0) parts.push(`delay ${decision.delayMs} ms`);
  if (decision.status !== undefined) parts.push(`status ${decision.status}`);
  if (decision.invalid)
    parts.push(decision.source === 'query' ? 'invalid delay parameter' : 'invalid X-Backlot header');
  return parts.length > 0 ? `${parts.join(', ')} (${decision.source})` : undefined;
};

/** Decides the request's faults (once) and remembers a note of them for the journal. */
function decide(harness: ServiceHarness, req: IncomingMessage) {
  const decision = harness.faults.decide(req);
  const note = noteOf(decision);
  if (note) faultNotes.set(req, note);
  return decision;
}

/**
 * Installs faults and the journal in a service's Fastify app. `refuse` words an error in the service's own shape.
 * The fault hook must be added before the service's routes, so an injected error never reaches the service's own
 * hooks (rate limits, login limiter) and is never counted there.
 */
export function installHarness(
  app: FastifyInstance,
  harness: ServiceHarness,
  docsPath: string,
  refuse: (request: FastifyRequest, status: number, message: string, code: string) => HttpError,
) {
  // A callback hook, not an async one: most requests only pay for the `idle()` check.
  app.addHook('onRequest', (request, reply, done) => {
    const { faults } = harness;
    if (
      faults.idle(request.raw.url) ||
      // A sub-request the service makes of itself: the outer request had its faults.
      isInnerRequest(request.raw) ||
      exempt(request.method, pathOf(request.raw.url), docsPath, request.routeOptions.config)
    )
      return done();
    const decision = decide(harness, request.raw);
    // Sent from here rather than thrown: a route's own error handler (profiles' GraphQL one) must not reword it.
    const send = (error: HttpError) => {
      reply
        .code(error.statusCode)
        .headers(error.headers ?? {})
        .send(error.body);
    };
    if (decision.invalid) return send(refuse(request, 400, decision.invalid, 'invalid_fault_header'));
    const go = () => {
      if (decision.status === undefined) return done();
      reply.header('x-backlot-fault', `status ${decision.status}`);
      const why = decision.source === 'header' ? 'X-Backlot-Status' : 'the error rate setting';
      send(
        refuse(
          request,
          decision.status,
          `Injected fault: status ${decision.status} (${why})`,
          'injected_fault',
        ),
      );
    };
    if (decision.delayMs === 0 || decision.delayed) return go();
    decision.delayed = true;
    waitAtLeast(decision.delayMs, go);
  });
  installJournal(app, harness.journal, (raw) => faultNotes.get(raw));
}

/**
 * Runs before a service's fast path (posts' precomputed GETs): waits the request's delay, and hands requests that
 * must fail (or carry a bad X-Backlot header) to Fastify, which answers them in the service's error shape. Calls
 * `serve` once the delay is over; it returns false when the fast path declined. Without faults nothing is
 * allocated here, and without a journal the clock is not read either.
 */
export function beforeFastPath(
  harness: ServiceHarness,
  docsPath: string,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  serve: (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean,
  toFastify: (req: IncomingMessage, res: ServerResponse) => void,
) {
  if (harness.faults.idle(req.url) || exempt(req.method ?? 'GET', pathOf(req.url), docsPath)) {
    const started = harness.journal.settings.size === 0 ? 0 : performance.now();
    return tryFastPath(harness, req, res, requestId, serve, toFastify, started, false);
  }
  const started = performance.now();
  const decision = decide(harness, req);
  if (decision.invalid || decision.status !== undefined) return toFastify(req, res);
  if (decision.delayMs === 0)
    return tryFastPath(harness, req, res, requestId, serve, toFastify, started, true);
  decision.delayed = true;
  // Should the fast path decline after the wait, Fastify's journal entry still counts from arrival.
  arrivedAt.set(req, started);
  waitAtLeast(decision.delayMs, () => {
    if (!res.destroyed) tryFastPath(harness, req, res, requestId, serve, toFastify, started, true);
  });
}

/**
 * The fast path writes its whole answer synchronously, so the status and duration are known once it returns.
 * `decided`: whether faults were rolled for this request, the only case with a fault note to journal.
 */
function tryFastPath(
  harness: ServiceHarness,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  serve: (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean,
  toFastify: (req: IncomingMessage, res: ServerResponse) => void,
  started: number,
  decided: boolean,
) {
  if (!serve(req, res, requestId)) return toFastify(req, res);
  const { journal } = harness;
  if (journal.settings.size === 0 || !journalled(req.url)) return;
  journal.add({
    seq: 0,
    arrived: started,
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    status: res.statusCode,
    // Without faults the answer took the few microseconds of `serve`, under the journal's 0.1 ms resolution:
    // 0 is what it would show, without a second clock read per request.
    durationMs: decided ? performance.now() - started : 0,
    requestId,
    headers: req.headers,
    fault: decided ? faultNotes.get(req) : undefined,
  });
}

/** A timer may fire a fraction of a millisecond early (libuv's clock is coarse): a delay is a promised minimum. */
function waitAtLeast(ms: number, then: () => void) {
  const until = performance.now() + ms;
  const check = () => {
    const left = until - performance.now();
    if (left > 0) setTimeout(check, Math.ceil(left));
    else then();
  };
  setTimeout(check, ms);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the harness's faults never touch this route (home pages, docs assets). */
    faults?: boolean;
  }
}

/** The harness as the platform's app factory takes it: its hooks on Fastify and its fast-path gate. */
export function harnessWrapper(harness: ServiceHarness): RequestWrapper {
  return {
    install: (app, docsPath, refuse) => installHarness(app, harness, docsPath, refuse),
    fastPathGate: (docsPath) => (req, res, id, serve, toFastify) =>
      beforeFastPath(harness, docsPath, req, res, id, serve, toFastify),
  };
}
