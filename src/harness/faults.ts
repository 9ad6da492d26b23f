import type { IncomingMessage } from 'node:http';
import {
  ConfigError,
  type DelayRange,
  delayText,
  type Env,
  envString,
  maxDelayMs,
  parseDelay,
} from '../config.js';

/** Latency and errors added to a service's answers: a fixed or random delay, and a share of requests failed. */
export interface FaultRule {
  /** Milliseconds before the service handles a request: `min === max` for a fixed delay. */
  delay: DelayRange;
  /** Share of requests (0–1) answered with `errorStatus` instead of being handled. */
  errorRate: number;
  errorStatus: number;
}

/** The JSON form of a rule (settings, admin API): `delayMs` is `"1500"` or a range `"100-300"`. */
export interface FaultRuleJson {
  delayMs: string;
  errorRate: number;
  errorStatus: number;
}

export const noFaults: FaultRule = { delay: { min: 0, max: 0 }, errorRate: 0, errorStatus: 503 };

export function parseErrorRate(raw: string, name: string): number {
  const rate = /^\s*(0|1|0?\.\d+|1\.0*)\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(rate >= 0 && rate <= 1)) throw new ConfigError(`${name}: must be a number from 0 to 1, got "${raw}"`);
  return rate;
}

/** Only error statuses: a fault that answers 2xx would hide that the service never ran. */
export function parseErrorStatus(raw: string, name: string): number {
  const status = /^\s*\d{3}\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(status >= 400 && status <= 599))
    throw new ConfigError(`${name}: must be a status from 400 to 599, got "${raw}"`);
  return status;
}

/** `<ID>_DELAY_MS`, `<ID>_ERROR_RATE` and `<ID>_ERROR_STATUS`; `defaultDelayMs` is the service's own (list: 1500). */
export function faultRuleFromEnv(env: Env, id: string, defaultDelayMs = 0): FaultRule {
  const prefix = id.toUpperCase();
  const delay = envString(env, `${prefix}_DELAY_MS`);
  const rate = envString(env, `${prefix}_ERROR_RATE`);
  const status = envString(env, `${prefix}_ERROR_STATUS`);
  return {
    delay:
      delay === undefined
        ? { min: defaultDelayMs, max: defaultDelayMs }
        : parseDelay(delay, `${prefix}_DELAY_MS`),
    errorRate: rate === undefined ? 0 : parseErrorRate(rate, `${prefix}_ERROR_RATE`),
    errorStatus: status === undefined ? 503 : parseErrorStatus(status, `${prefix}_ERROR_STATUS`),
  };
}

export function ruleToJson(rule: FaultRule): FaultRuleJson {
  return { delayMs: delayText(rule.delay), errorRate: rule.errorRate, errorStatus: rule.errorStatus };
}

/** A partial JSON rule (admin API) over `base`; throws ConfigError naming the field. */
export function ruleFromJson(
  json: Partial<Record<keyof FaultRuleJson, unknown>>,
  base: FaultRule,
): FaultRule {
  const text = (value: unknown) => (typeof value === 'number' ? String(value) : value);
  const field = (name: keyof FaultRuleJson) => {
    const value = text(json[name]);
    if (value !== undefined && typeof value !== 'string')
      throw new ConfigError(`${name}: must be a number or text`);
    return value;
  };
  const delay = field('delayMs');
  const rate = field('errorRate');
  const status = field('errorStatus');
  return {
    delay: delay === undefined ? base.delay : parseDelay(delay, 'delayMs'),
    errorRate: rate === undefined ? base.errorRate : parseErrorRate(rate, 'errorRate'),
    errorStatus: status === undefined ? base.errorStatus : parseErrorStatus(status, 'errorStatus'),
  };
}

/**
 * A change to a running service's rule, as the admin API's PUT and `start().setFaults` take it: any of `delayMs`,
 * `errorRate`, `errorStatus` (the others kept). Throws ConfigError naming a bad or unknown field.
 */
export function changedRule(base: FaultRule, change: unknown): FaultRule {
  if (!change || typeof change !== 'object' || Array.isArray(change))
    throw new ConfigError('the change must be an object: {"delayMs", "errorRate", "errorStatus"}');
  const unknown = Object.keys(change).find((key) => !['delayMs', 'errorRate', 'errorStatus'].includes(key));
  if (unknown) throw new ConfigError(`${unknown}: unknown field (delayMs, errorRate, errorStatus)`);
  return ruleFromJson(change as Record<string, unknown>, base);
}

/** Whether `X-Backlot-Delay` / `X-Backlot-Status` are honoured: one switch for every service of a process. */
export class FaultHeaders {
  constructor(public enabled = false) {}
}

/** What happens to one request: wait `delayMs`, then answer `status` (an injected error) or handle it. */
export interface FaultDecision {
  delayMs: number;
  status?: number;
  /** Why: `setting` (the service's rule), `header`, or `query` (list's `_delay`); for the error message and the journal. */
  source: 'setting' | 'header' | 'query';
  /** A malformed X-Backlot-* header (when headers are on): answered 400 without delay. */
  invalid?: string;
  /** Set once the delay was waited (the fast path waits before handing a request to Fastify). */
  delayed?: boolean;
}

const decided = Symbol('backlot.faults');
type Decided = IncomingMessage & { [decided]?: FaultDecision };

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** One service's faults: its rule (changed at run time by the admin API) and the shared header switch. */
export class ServiceFaults {
  /**
   * A query parameter whose milliseconds are added to the request's delay, for services that mimic one (list:
   * json-server's `_delay`); set by the service's definition (`delayParam`).
   */
  delayParam?: string;

  constructor(
    public rule: FaultRule,
    readonly headers: FaultHeaders = new FaultHeaders(),
  ) {}

  /** Nothing to do for the request: the common case, checked first so it costs next to nothing. */
  idle(url?: string): boolean {
    return (
      !this.headers.enabled &&
      this.rule.errorRate === 0 &&
      this.rule.delay.max === 0 &&
      !(this.delayParam && url?.includes(`${this.delayParam}=`))
    );
  }

  /** Decides once per request, so a request the fast path hands on to Fastify is not rolled twice. */
  decide(req: IncomingMessage): FaultDecision {
    const known = (req as Decided)[decided];
    if (known) return known;
    const decision = this.roll(req);
    (req as Decided)[decided] = decision;
    return decision;
  }

  private roll(req: IncomingMessage): FaultDecision {
    const { delay, errorRate, errorStatus } = this.rule;
    const decision: FaultDecision = {
      delayMs: delay.min + Math.floor(Math.random() * (delay.max - delay.min + 1)),
      status: errorRate > 0 && Math.random() < errorRate ? errorStatus : undefined,
      source: 'setting',
    };
    // The query's delay adds to whichever delay the setting or X-Backlot-Delay gives (json-server: --delay + _delay).
    const extra = this.delayParam ? queryDelay(req.url, this.delayParam) : undefined;
    if (typeof extra === 'string') return { delayMs: 0, source: 'query', invalid: extra };
    if (extra !== undefined) {
      decision.delayMs += extra;
      decision.source = 'query';
    }
    if (!this.headers.enabled) return decision;
    const delayHeader = headerText(req.headers['x-backlot-delay']);
    const statusHeader = headerText(req.headers['x-backlot-status']);
    try {
      if (delayHeader !== undefined) {
        const range = parseDelay(delayHeader, 'X-Backlot-Delay');
        decision.delayMs = range.min + Math.floor(Math.random() * (range.max - range.min + 1)) + (extra ?? 0);
        decision.source = 'header';
      }
      if (statusHeader !== undefined) {
        decision.status = parseErrorStatus(statusHeader, 'X-Backlot-Status');
        decision.source = 'header';
      }
    } catch (error) {
      return { delayMs: 0, source: 'header', invalid: (error as Error).message };
    }
    return decision;
  }
}

/**
 * json-server's `_delay`: the first value read as `parseFloat` reads it (text that is not a number is ignored, a
 * negative delay is none). Returns the milliseconds, or a message for a delay over the harness's maximum.
 */
function queryDelay(url: string | undefined, name: string): number | string | undefined {
  const start = url?.indexOf('?') ?? -1;
  if (start === -1 || !url) return undefined;
  const raw = new URLSearchParams(url.slice(start + 1)).get(name);
  const ms = raw === null ? Number.NaN : Number.parseFloat(raw);
  if (Number.isNaN(ms)) return undefined;
  if (ms > maxDelayMs) return `${name}: must be at most ${maxDelayMs} ms, got "${raw}"`;
  return Math.max(0, Math.round(ms));
}

/** Requests faults never touch: preflights, health, the docs and routes marked `config: { faults: false }`. */
export function exempt(method: string, path: string, docsPath: string, config?: unknown): boolean {
  if (method === 'OPTIONS') return true;
  if ((config as { faults?: boolean } | undefined)?.faults === false) return true;
  if (path === '/healthz' || path === '/readyz' || path === '/openapi.json') return true;
  if (path === '/docs' || path.startsWith('/docs/')) return true;
  return method === 'GET' && path === docsPath;
}

export const pathOf = (url: string | undefined) => {
  const raw = url ?? '/';
  const end = raw.indexOf('?');
  return end === -1 ? raw : raw.slice(0, end);
};
