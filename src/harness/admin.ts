import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import Fastify from 'fastify';
import { hostAllowed } from '../platform/cors.js';
import { newToken, safeEqual } from '../platform/secrets.js';
import { type FaultHeaders, ruleFromJson, ruleToJson } from './faults.js';
import type { ServiceHarness } from './service-harness.js';
import type { StateControl } from './state.js';

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
  host: string;
  /** 0: any free port. */
  port: number;
  /** Required on every API call when set; generated when listening off loopback without one. */
  token?: string;
  /** ALLOWED_HOSTS: names accepted in Host besides loopback names and IP literals (DNS-rebinding guard). */
  allowedHosts?: string[] | '*';
  logger?: FastifyBaseLogger;
}

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

const checkpointName = /^[\w.-]{1,64}$/;

class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The admin API and page on their own port: services, credentials, journals, faults, reset and checkpoints. */
export async function startAdmin(options: AdminOptions): Promise<RunningAdmin> {
  const { services, faultHeaders, state } = options;
  const token = options.token ?? (isLoopbackAddress(options.host) ? undefined : newToken(24));
  // No request logging: the page polls every second. Failures are logged by the error handler.
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  const html = asset('admin-page.html');
  const script = asset('admin-page.js');
  const style = asset('admin-page.css');

  const serviceOf = (id: string) => {
    const found = services.find((s) => s.id === id);
    if (!found)
      throw new AdminError(
        404,
        `no running service "${id}" (running: ${services.map((s) => s.id).join(', ')})`,
      );
    return found;
  };
  const idsOf = (body: unknown) => {
    const ids = (body as { services?: unknown } | undefined)?.services;
    if (ids === undefined) return undefined;
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
      throw new AdminError(400, 'services: must be a list of service ids');
    for (const id of ids) serviceOf(id);
    return ids as string[];
  };
  const needState = () => {
    if (!state) throw new AdminError(501, 'reset and checkpoints are not available in this process');
    return state;
  };

  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error instanceof AdminError ? error.status : (error.statusCode ?? 500);
    if (status >= 500 && !(error instanceof AdminError))
      options.logger?.error({ err: error }, 'admin request failed');
    reply
      .status(status)
      .send({ error: status >= 500 && !(error instanceof AdminError) ? 'internal error' : error.message });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: `No route for ${request.method} ${request.url.split('?')[0]}` });
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // DNS rebinding: a hostile name resolving to 127.0.0.1 must not reach the admin through a browser.
    const hosts = options.allowedHosts;
    if (hosts !== '*' && !hostAllowed(request.headers.host, hosts ?? [])) {
      throw new AdminError(403, 'this host is not allowed (see ALLOWED_HOSTS)');
    }
    // A page on another site must not change anything here (CSRF): writes come from this origin or no browser.
    const origin = request.headers.origin;
    if (request.method !== 'GET' && origin !== undefined && origin !== `http://${request.headers.host}`) {
      throw new AdminError(403, `origin ${origin} may not use the admin API`);
    }
    if (token && request.url.startsWith('/api/')) {
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!safeEqual(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="backlot admin"');
        throw new AdminError(401, 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>');
      }
    }
  });

  app.get('/', async (_request, reply) =>
    reply.headers(pageHeaders).type('text/html; charset=utf-8').send(html),
  );
  app.get('/admin-page.js', async (_request, reply) =>
    reply.headers(pageHeaders).type('text/javascript; charset=utf-8').send(script),
  );
  app.get('/admin-page.css', async (_request, reply) =>
    reply.headers(pageHeaders).type('text/css; charset=utf-8').send(style),
  );
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/api/services', async (request) => {
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

  app.get<{ Params: { id: string }; Querystring: { after?: string } }>(
    '/api/services/:id/requests',
    async (request) => {
      const after = Number(request.query.after ?? 0);
      if (!Number.isSafeInteger(after) || after < 0)
        throw new AdminError(400, 'after: must be a whole number');
      return { entries: serviceOf(request.params.id).harness.journal.list(after) };
    },
  );
  app.delete<{ Params: { id: string } }>('/api/services/:id/requests', async (request, reply) => {
    serviceOf(request.params.id).harness.journal.clear();
    return reply.status(204).send();
  });

  app.get<{ Params: { id: string } }>('/api/services/:id/faults', async (request) =>
    ruleToJson(serviceOf(request.params.id).harness.faults.rule),
  );
  app.put<{ Params: { id: string } }>('/api/services/:id/faults', async (request) => {
    const { faults } = serviceOf(request.params.id).harness;
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new AdminError(400, 'the body must be a JSON object: {"delayMs", "errorRate", "errorStatus"}');
    const unknown = Object.keys(body).find((key) => !['delayMs', 'errorRate', 'errorStatus'].includes(key));
    if (unknown) throw new AdminError(400, `${unknown}: unknown field (delayMs, errorRate, errorStatus)`);
    try {
      faults.rule = ruleFromJson(body as Record<string, unknown>, faults.rule);
    } catch (error) {
      throw new AdminError(400, (error as Error).message);
    }
    return ruleToJson(faults.rule);
  });

  app.get('/api/fault-headers', async () => ({ enabled: faultHeaders.enabled }));
  app.put('/api/fault-headers', async (request) => {
    const enabled = (request.body as { enabled?: unknown } | undefined)?.enabled;
    if (typeof enabled !== 'boolean') throw new AdminError(400, 'enabled: must be true or false');
    faultHeaders.enabled = enabled;
    return { enabled };
  });

  app.post('/api/reset', async (request) => {
    const ids = idsOf(request.body);
    await needState().reset(ids);
    return { reset: ids ?? services.map((s) => s.id) };
  });
  app.get('/api/checkpoints', async () => ({ checkpoints: await needState().checkpoints() }));
  app.post('/api/checkpoints', async (request, reply) => {
    const name = (request.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string' || !checkpointName.test(name))
      throw new AdminError(400, 'name: 1-64 letters, digits, dots, dashes or underscores');
    const ids = idsOf(request.body);
    await needState().checkpoint(name, ids);
    return reply.status(201).send({ name, services: ids ?? services.map((s) => s.id) });
  });
  app.post<{ Params: { name: string } }>('/api/checkpoints/:name/restore', async (request) => {
    const { name } = request.params;
    const control = needState();
    if (!(await control.checkpoints()).includes(name)) throw new AdminError(404, `no checkpoint "${name}"`);
    const ids = idsOf(request.body);
    await control.restore(name, ids);
    return { restored: name, services: ids ?? services.map((s) => s.id) };
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
