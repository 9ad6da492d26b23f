import type { FastifyBaseLogger } from 'fastify';
import type { GlobalSettings } from '../config.js';
import {
  type AdminService,
  type OperatorCommands,
  type RunningAdmin,
  type StateControl,
  startAdmin,
} from './admin.js';
import type { FaultHeaders } from './faults.js';
import { recordRunningAdmin } from './running.js';

/**
 * Starts the admin page and API beside `backlot serve`'s services, and words its banner lines. With ADMIN_PORT
 * unset, a busy 8090 (another backlot) only costs this process its admin page; a port that was asked for must be
 * free, like the services' own ports.
 */
export async function serveAdmin(
  backlot: { services: AdminService[]; faultHeaders: FaultHeaders },
  global: GlobalSettings,
  logger: FastifyBaseLogger,
  state?: StateControl,
  commands?: OperatorCommands,
): Promise<{ admin?: RunningAdmin; banner: string[] }> {
  const { port, host, token, portSet } = global.admin;
  try {
    const admin = await startAdmin({
      services: backlot.services,
      faultHeaders: backlot.faultHeaders,
      state,
      commands,
      host,
      port,
      token,
      allowedHosts: global.allowedHosts,
      logger,
    });
    // A generated token is shown once, in the link: its fragment carries the token to the page without sending
    // it to any server (or into any log). The operator's own ADMIN_TOKEN is theirs to know, never printed.
    const generated = admin.token !== undefined && token === undefined;
    // Operator commands run in another process find this admin through the data directory (harness/running.ts).
    const forget = recordRunningAdmin(global.dataDir, admin.url, generated ? admin.token : undefined);
    const close = admin.close;
    admin.close = async () => {
      forget();
      await close();
    };
    const link = generated ? `${admin.url}#token=${admin.token}` : admin.url;
    const note = generated
      ? 'page and API; keep this link, it holds the admin token'
      : admin.token
        ? 'page and API; calls need the ADMIN_TOKEN you set'
        : 'page and API';
    return { admin, banner: [`  ${'admin'.padEnd(10)} ${link}  (${note})`] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || portSet) throw error;
    return {
      banner: [`  ${'admin'.padEnd(10)} not started: port ${port} is in use (set ADMIN_PORT; 0 for none)`],
    };
  }
}
