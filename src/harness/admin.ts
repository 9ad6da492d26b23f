import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import pino from 'pino';
import { HttpError } from '../platform/errors.js';
import { createApp } from '../platform/http.js';
import { parseBearer } from '../platform/request.js';
import { newToken, safeEqual } from '../platform/secrets.js';
import { type AppSurface, UsageError } from '../platform/service.js';
import { checkpointNameRule, isCheckpointName } from './checkpoint-name.js';
import { changedRule, type FaultHeaders, ruleToJson } from './faults.js';
import type { ServiceHarness } from './service-harness.js';
import { CheckpointNotFound, type StateControl, StateError } from './state.js';

export type { StateControl };

/** What the admin API shows and changes of each running service. */
export interface AdminService {
  id: string;
  url: string;
  docsUrl: string;
  /** The startup banner's lines for it: generated credentials and hints. Shown to loopback callers only. */
  banner: string[];
  harness: ServiceHarness;
}

export interface AdminOptions {
  services: AdminService[];
  faultHeaders: FaultHeaders;
  /** Without it, reset and checkpoint routes answer 501. */
  state?: StateControl;
  /** Runs `backlot <service> <argv…>` in this process (the operator commands); without it, their route answers 501. */
  commands?: OperatorCommands;
  host: string;
  /** 0: any free port. */
  port: number;
  /** Required on every API call when set; generated when listening off loopback without one. */
  token?: string;
  /**
   * ALLOWED_HOSTS: names accepted in Host besides loopback names and IP literals (DNS-rebinding guard). The check
   * is always on for the admin: `*` (which switches it off for the services) adds no name.
   */
  allowedHosts?: string[] | '*';
  logger?: FastifyBaseLogger;
  /** How long a request may take to arrive (default 10 s: a body is 64 KiB at most). */
  requestTimeoutMs?: number;
}

/** Runs one operator command on this process's data and returns what it prints; UsageError for bad arguments. */
export type OperatorCommands = (service: string, argv: string[]) => Promise<string>;

export interface RunningAdmin {
  url: string;
  /** The token callers must send (Authorization: Bearer), if any. */
  token?: string;
  close(): Promise<void>;
}

const asset = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url));
const pageCsp =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const pageHeaders = {
  'content-security-policy': pageCsp,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** 127.x, ::1 (also as an IPv4-mapped address) or the name localhost: the machine itself. */
export const isLoopbackAddress = (address: string | undefined) =>
  !!address &&
  (/^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address) || address === 'localhost');

const adminError = (status: number, message: string, headers?: Record<string, string>) =>
  new HttpError(status, { error: message }, headers);

/** The admin as the app factory serves it: every failure is `{"error": "..."}`. */
const adminSurface: AppSurface = {
  id: 'admin',
  title: 'the admin API and page',
  openapi: false,
  docsPath: '/',
  errorBody: (error) => ({ error: error.message }),
};

/** No page of another origin may read the admin's answers (they hold credentials): no CORS headers for any. */
const noOrigins = { anyOrigin: false, allowed: () => false } as const;

/** Only warnings and errors: the page polls every second, and requests are not worth a line each. */
function quietLogger(logger: FastifyBaseLogger | undefined): FastifyBaseLogger {
  if (!logger) return pino({ level: 'silent' });
  const own = pino.levels.values[logger.level] ?? Number.POSITIVE_INFINITY;
  return logger.child(
    { service: 'admin' },
    { level: own >= pino.levels.values.warn! ? logger.level : 'warn' },
  );
}

/** A refused state request (a missing checkpoint, a service whose data checkpoints do not reach) is the caller's. */
async function stateCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CheckpointNotFound) throw adminError(404, error.message);
    if (error instanceof StateError) throw adminError(409, error.message);
    throw error;
  }
}

const checkpointNameOf = (name: unknown) => {
  if (!isCheckpointName(name)) throw adminError(400, `name: ${checkpointNameRule}`);
  return name;
};

/**
 * The admin API and page on their own port: services, credentials, journals, faults, reset and checkpoints. Built
 * by the platform's app factory like every service (one error handler, one Host check, body limit and timeouts);
 * the token guard hangs on the `/api` routes themselves, whatever spelling of the path the router decoded.
 */
export async function startAdmin(options: AdminOptions): Promise<RunningAdmin> {
  const { services, faultHeaders, state } = options;
  const token = options.token ?? (isLoopbackAddress(options.host) ? undefined : newToken(24));
  const app = await createApp(adminSurface, {
    logger: quietLogger(options.logger),
    bodyLimit: 64 * 1024,
    trustProxy: false,
    ready: async () => {},
    version: '',
    cors: noOrigins,
    // DNS rebinding: a hostile name resolving to 127.0.0.1 must not read the credentials or reset everything, so
    // the check stays on whatever ALLOWED_HOSTS says; `*` lists no name.
    allowedHosts: Array.isArray(options.allowedHosts) ? options.allowedHosts : [],
    requestTimeout: options.requestTimeoutMs ?? 10_000,
  });
  await app.register(async (admin) => {
    // A page on another site must not change anything here (CSRF): writes come from this origin or no browser.
    admin.addHook('onRequest', async (request: FastifyRequest) => {
      const origin = request.headers.origin;
      if (request.method !== 'GET' && origin !== undefined && origin !== `http://${request.headers.host}`) {
        throw adminError(403, `origin ${origin} may not use the admin API`);
      }
    });
    pageRoutes(admin);
    await admin.register(
      async (api) => {
        if (token) {
          api.addHook('onRequest', async (request: FastifyRequest) => {
            const given = parseBearer(request.headers.authorization);
            if (given === undefined || !safeEqual(given, token)) {
              throw adminError(401, 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>', {
                'www-authenticate': 'Bearer realm="backlot admin"',
              });
            }
          });
        }
        apiRoutes(api, services, faultHeaders, state);
        commandRoute(api, options.commands);
      },
      { prefix: '/api' },
    );
  });

  await app.listen({ host: options.host, port: options.port });
  const { port } = app.server.address() as { port: number };
  const shown = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/`,
    token,
    close: () => app.close(),
  };
}

function pageRoutes(admin: FastifyInstance) {
  const html = asset('admin-page.html');
  const script = asset('admin-page.js');
  const style = asset('admin-page.css');
  admin.get('/', async (_request, reply) =>
    reply.headers(pageHeaders).type('text/html; charset=utf-8').send(html),
  );
  admin.get('/admin-page.js', async (_request, reply) =>
    reply.headers(pageHeaders).type('text/javascript; charset=utf-8').send(script),
  );
  admin.get('/admin-page.css', async (_request, reply) =>
    reply.headers(pageHeaders).type('text/css; charset=utf-8').send(style),
  );
}

/**
 * `POST /api/services/:id/commands {"argv": ["token", "create", "--name", "ci"]}` → `{"output": "…"}`: what
 * `backlot <id> …` prints, run by this process, which holds the data (the command line sends it here).
 */
function commandRoute(api: FastifyInstance, commands: OperatorCommands | undefined) {
  api.post<{ Params: { id: string } }>('/services/:id/commands', async (request) => {
    if (!commands) throw adminError(501, 'operator commands are not available in this process');
    const argv = (request.body as { argv?: unknown } | undefined)?.argv;
    if (!Array.isArray(argv) || argv.some((a) => typeof a !== 'string'))
      throw adminError(400, 'argv: must be a list of strings (the words after "backlot <service>")');
    try {
      return { output: await commands(request.params.id, argv) };
    } catch (error) {
      if (error instanceof UsageError) throw adminError(400, error.message);
      throw error;
    }
  });
}

/** The routes under `/api` (the prefix is the plugin's). */
function apiRoutes(
  api: FastifyInstance,
  services: AdminService[],
  faultHeaders: FaultHeaders,
  state: StateControl | undefined,
) {
  const serviceOf = (id: string) => {
    const found = services.find((s) => s.id === id);
    if (!found)
      throw adminError(404, `no running service "${id}" (running: ${services.map((s) => s.id).join(', ')})`);
    return found;
  };
  const idsOf = (body: unknown) => {
    const ids = (body as { services?: unknown } | undefined)?.services;
    if (ids === undefined) return undefined;
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
      throw adminError(400, 'services: must be a list of service ids');
    for (const id of ids) serviceOf(id);
    return ids as string[];
  };
  const needState = () => {
    if (!state) throw adminError(501, 'reset and checkpoints are not available in this process');
    return state;
  };

  api.get('/services', async (request) => {
    const loopback = isLoopbackAddress(request.socket.remoteAddress);
    return {
      services: services.map((s) => ({
        id: s.id,
        url: s.url,
        docsUrl: s.docsUrl,
        ...(loopback ? { banner: s.banner } : {}),
        faults: ruleToJson(s.harness.faults.rule),
        journal: { size: s.harness.journal.settings.size, bodies: s.harness.journal.settings.bodies },
      })),
      faultHeaders: faultHeaders.enabled,
      state: Boolean(state),
      credentialsShown: loopback,
    };
  });

  api.get<{ Params: { id: string }; Querystring: { after?: string } }>(
    '/services/:id/requests',
    async (request) => {
      const after = Number(request.query.after ?? 0);
      if (!Number.isSafeInteger(after) || after < 0) throw adminError(400, 'after: must be a whole number');
      return { entries: serviceOf(request.params.id).harness.journal.list(after) };
    },
  );
  api.delete<{ Params: { id: string } }>('/services/:id/requests', async (request, reply) => {
    serviceOf(request.params.id).harness.journal.clear();
    return reply.status(204).send();
  });

  api.get<{ Params: { id: string } }>('/services/:id/faults', async (request) =>
    ruleToJson(serviceOf(request.params.id).harness.faults.rule),
  );
  api.put<{ Params: { id: string } }>('/services/:id/faults', async (request) => {
    const { faults } = serviceOf(request.params.id).harness;
    try {
      faults.rule = changedRule(faults.rule, request.body);
    } catch (error) {
      throw adminError(400, (error as Error).message);
    }
    return ruleToJson(faults.rule);
  });

  api.get('/fault-headers', async () => ({ enabled: faultHeaders.enabled }));
  api.put('/fault-headers', async (request) => {
    const enabled = (request.body as { enabled?: unknown } | undefined)?.enabled;
    if (typeof enabled !== 'boolean') throw adminError(400, 'enabled: must be true or false');
    faultHeaders.enabled = enabled;
    return { enabled };
  });

  api.post('/reset', async (request) => {
    const ids = idsOf(request.body);
    await stateCall(() => needState().reset(ids));
    return { reset: ids ?? services.map((s) => s.id) };
  });
  api.get('/checkpoints', async () => ({
    checkpoints: await stateCall(() => needState().checkpointSizes()),
  }));
  api.post('/checkpoints', async (request, reply) => {
    const control = needState();
    const name = checkpointNameOf((request.body as { name?: unknown } | undefined)?.name);
    const ids = idsOf(request.body);
    await stateCall(() => control.checkpoint(name, ids));
    return reply.status(201).send({ name, services: ids ?? services.map((s) => s.id) });
  });
  api.post<{ Params: { name: string } }>('/checkpoints/:name/restore', async (request) => {
    const control = needState();
    const name = checkpointNameOf(request.params.name);
    const ids = idsOf(request.body);
    await stateCall(() => control.restore(name, ids));
    return { restored: name, services: ids ?? services.map((s) => s.id) };
  });
  api.delete<{ Params: { name: string } }>('/checkpoints/:name', async (request, reply) => {
    const control = needState();
    const name = checkpointNameOf(request.params.name);
    await stateCall(() => control.deleteCheckpoint(name));
    return reply.status(204).send();
  });
}
