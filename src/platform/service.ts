import type { IncomingMessage } from 'node:http';
import type { ParseArgsConfig, parseArgs } from 'node:util';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifySchemaValidationError } from 'fastify';
import type { Env, GlobalSettings } from '../config.js';
import type { Database, Migration } from './database.js';
import type { FastPath } from './fast-path.js';
import type { GeneratedCredentials } from './secrets.js';

export type ServiceId = 'profiles' | 'things' | 'list' | 'employees' | 'posts' | 'machines' | 'content';

/** What the error handler knows about a failed request; each service turns it into its own error shape. */
export interface ErrorInfo {
  status: number;
  message: string;
  /** Fastify's or the service's error code, when there is one (e.g. `FST_ERR_VALIDATION`). */
  code?: string;
  /** Set for schema validation failures: which part of the request (`body`, `querystring`, `params`). */
  validationContext?: string;
  /** Schema validation failures, for services that word them (first one first). */
  validation?: FastifySchemaValidationError[];
  /** The request's x-request-id, for services whose error bodies carry it. */
  requestId?: string;
  /**
   * The route the request reached (absent for unknown routes): its declared path, the request's method and the
   * route's schema, for services that word validation failures from the schema or answer some routes in another
   * shape.
   */
  route?: { url?: string; method: string; schema?: unknown };
}

/** Where a service reads the time for its windows and deadlines (login limits, rate limits, expiries). */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
}

/** The process's own clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** The clock of a service: its context's, or the system's when the context was built without one. */
export const clockOf = (ctx: Pick<ServiceContext, 'clock'>): Clock => ctx.clock ?? systemClock;

export interface ServiceContext<S = unknown> {
  /** This service's own settings, from its `settings(env)`. */
  settings: S;
  global: GlobalSettings;
  /** Shared by every service of the process; each service keeps to its own schema. */
  db: Database;
  log: FastifyBaseLogger;
  credentials: GeneratedCredentials;
  /** Where the service is reachable, for links outside a request (the banner, seeds). */
  publicUrl: string;
  /**
   * The time its windows and deadlines are read by (`systemClock` when absent). Tests hand in one they move, so
   * a window ends or a deadline passes without waiting for it. SQL reads this time as a parameter, never `now()`.
   */
  clock?: Clock;
}

export interface RunningService {
  /** The HTTP surface, registered at the root of the service's own Fastify instance. */
  routes: FastifyPluginAsync;
  /** Lines for the startup banner (generated credentials, hints); never logged. */
  banner?: string[];
  /** Precomputed answers served ahead of Fastify (see FastPath in http.ts). */
  fastPath?: FastPath;
  /** Replaces the definition's `beforeRouting` for this instance (list's routes file rewrites URLs). */
  beforeRouting?(request: IncomingMessage): string | undefined;
  /** State kept outside SQL (the list's file), saved and put back by the harness's checkpoints. */
  snapshot?: { save(): Promise<string>; restore(saved: string): Promise<void> };
  close?(): Promise<void>;
}

/** An operator command's flags, declared as `node:util` `parseArgs` options (`{ name: { type: 'string' } }`). */
export interface CommandFlags {
  [longOption: string]: CommandFlag;
}
// Named here: node's own name for it is not exported, and the build's declarations must name every type.
type CommandFlag = NonNullable<ParseArgsConfig['options']>[string];

type ParsedFlags<F extends CommandFlags> = ReturnType<
  typeof parseArgs<{ options: F; strict: true; allowPositionals: true }>
>['values'];

/** What `parseArgs` gives for `F`, with the `required` flags no longer optional. */
export type FlagValues<F extends CommandFlags, R extends keyof F> = Omit<ParsedFlags<F>, R> & {
  [K in R & keyof ParsedFlags<F>]-?: NonNullable<ParsedFlags<F>[K]>;
};

/**
 * `backlot <service> <command> [args] [--flags]`, an operator command (the service's "control panel"). Its key in
 * `commands` is the words that name it (`token create`). The CLI parses the flags (strictly: an unknown or missing
 * flag is a usage error), adds the global ones (`--data-dir`), builds the usage line, and calls `run`.
 */
export interface ServiceCommand<
  S = unknown,
  F extends CommandFlags = CommandFlags,
  R extends keyof F & string = keyof F & string,
  A extends string = string,
> {
  summary: string;
  flags?: F;
  /** Flags that must be given. */
  required?: readonly R[];
  /** Positional arguments, all required, in order (`token revoke <name>`). */
  args?: readonly A[];
  /** Returns what to print; throws `UsageError` for arguments it refuses. */
  run(input: { flags: FlagValues<F, R>; args: Record<A, string> }, ctx: ServiceContext<S>): Promise<string>;
}

/** Declares a command with typed flag values; the result fits any service's `commands`. */
export function defineCommand<
  S,
  const F extends CommandFlags = Record<never, never>,
  R extends keyof F & string = never,
  A extends string = never,
>(command: ServiceCommand<S, F, R, A>): ServiceCommand<S> {
  return command as unknown as ServiceCommand<S>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * What the command line knows about a service before running it: cheap to import (no HTTP, SQL or SDK code), so
 * `--help`, operator commands and a process serving other services never load this one.
 */
export interface ServiceManifest<S = unknown> {
  id: ServiceId;
  title: string;
  ports: { alone: number; together: number };
  /** Env variables that set the port when this service is served alone, checked in order (default `PORT`). */
  portEnv?: string[];
  /** Env variable that sets the host when this service is served alone (things: `IP`). */
  hostEnv?: string;
  /** The Postgres schema that holds this service's tables; undefined when it keeps no SQL state. */
  schema?: string;
  /** The delay before every answer when `<ID>_DELAY_MS` is unset (the list spec's 1500 ms); default 0. */
  defaultDelayMs?: number;
  /** Reads this service's settings; throws `ConfigError` naming the variable. */
  settings(env: Env): S;
  /** Loads the operator commands (for `--help` and `backlot <service> <command>`). */
  commands?: () => Promise<Record<string, ServiceCommand<S>>>;
}

/** One entry of the registry: the manifest, and the service itself, imported only when it is served. */
export interface ServiceEntry<S = unknown> extends ServiceManifest<S> {
  load(): Promise<ServiceDefinition<S>>;
}

/** An OpenAPI 3 security scheme, of the kinds backlot's services use. */
export type SecurityScheme =
  | { type: 'http'; scheme: 'basic' | 'bearer'; description?: string }
  | { type: 'apiKey'; in: 'header'; name: string; description?: string };

/** Scheme names that together authenticate a request (`{}`: none needed); a list means any one of them. */
export type SecurityRequirement = Record<string, string[]>;

export interface ServiceDefinition<S = unknown> extends Omit<ServiceManifest<S>, 'commands'> {
  /** Plain SQL, run in `schema`; services without SQL state have none. */
  migrations?: Migration[];
  /** REST services get `/openapi.json` and an interactive reference at `/docs`. */
  openapi: boolean;
  /** Path of the human-facing docs, for the banner (`/docs`, or `/` for the GraphQL IDE). */
  docsPath: string;
  /**
   * Callers authenticate (Basic, Bearer or a secret header): browsers may then use the service only from allowed
   * origins (loopback pages and CORS_ORIGINS). Services without credentials answer every origin.
   */
  credentialed?: boolean;
  /**
   * How callers authenticate, as OpenAPI security schemes: /docs then offers Authorize, and "Try it out" sends the
   * credentials. `security` applies to every operation unless a route's schema says otherwise.
   */
  securitySchemes?: Record<string, SecurityScheme>;
  security?: SecurityRequirement[];
  /** Response headers browsers may read (CORS `Access-Control-Expose-Headers`). */
  exposeHeaders?: string[];
  /** Paths match whatever their case, as Express matches them (posts: `/POSTS`, `/Posts/1`); parameters keep theirs. */
  caseInsensitivePaths?: boolean;
  /** A query parameter that adds to the harness's delay for one request (list: json-server's `_delay`). */
  delayParam?: string;
  /**
   * Runs on each request before it is routed, once: may change its method (posts: `X-HTTP-Method-Override`) and
   * return the URL to route it by instead (content: `?rest_route=`, core's case-insensitive routes).
   */
  beforeRouting?(request: IncomingMessage): string | undefined;
  /**
   * Renders any error (validation, not found, 5xx) in this service's documented shape. Returns the body, sent with
   * the ErrorInfo's `status`, or an `HttpError` to answer with another status (machines answers a bad body with 422).
   */
  errorBody(error: ErrorInfo): unknown;
  start(ctx: ServiceContext<S>): Promise<RunningService>;
  /** Keyed by the words that name each command (`token create`); made with `defineCommand`. */
  commands?: Record<string, NoInfer<ServiceCommand<S>>>;
}

/** What the app factory (`createApp`) serves: a service, or the harness's admin API and page. */
export type AppSurface = Pick<
  ServiceDefinition,
  | 'title'
  | 'openapi'
  | 'docsPath'
  | 'errorBody'
  | 'exposeHeaders'
  | 'caseInsensitivePaths'
  | 'beforeRouting'
  | 'securitySchemes'
  | 'security'
> & { id: string };

/** Keeps each definition's settings type while collecting them in one registry. */
export function defineService<S>(definition: ServiceDefinition<S>): ServiceDefinition<S> {
  return definition;
}

/** Checks a manifest while keeping its exact type, so a definition can spread it and add its own `commands`. */
export function defineManifest<M extends ServiceManifest<any>>(manifest: M): M {
  return manifest;
}
