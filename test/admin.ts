import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { globalSettings } from '../src/config.js';
import { type AdminOptions, type RunningAdmin, type StateControl, startAdmin } from '../src/harness/admin.js';
import { CheckpointNotFound } from '../src/harness/state.js';
import { type Backlot, planServices, startBacklot } from '../src/server.js';
import { findService } from '../src/services/index.js';

/**
 * A small StateControl that records its calls, so tests can see exactly what the admin asked for: each service's
 * "state" is a number, checkpoints copy them. (`startAdminFixture({}, {}, true)` uses the services' real one.)
 */
export class CounterState implements StateControl {
  values = new Map<string, number>();
  saved = new Map<string, Map<string, number>>();
  calls: string[] = [];
  constructor(readonly ids: string[]) {
    for (const id of ids) this.values.set(id, 0);
  }
  async reset(ids = this.ids) {
    this.calls.push(`reset ${ids.join(',')}`);
    for (const id of ids) this.values.set(id, 0);
  }
  async checkpoint(name: string, ids = this.ids) {
    this.calls.push(`checkpoint ${name} ${ids.join(',')}`);
    this.saved.set(name, new Map(ids.map((id) => [id, this.values.get(id) ?? 0])));
  }
  async restore(name: string, ids = this.ids) {
    this.calls.push(`restore ${name} ${ids.join(',')}`);
    const saved = this.saved.get(name);
    if (!saved) throw new CheckpointNotFound(`no checkpoint named "${name}"`);
    for (const id of ids) if (saved?.has(id)) this.values.set(id, saved.get(id)!);
  }
  async checkpoints() {
    return [...this.saved.keys()];
  }
  async checkpointSizes() {
    return [...this.saved].map(([name, values]) => ({ name, bytes: values.size }));
  }
  async deleteCheckpoint(name: string) {
    this.calls.push(`delete ${name}`);
    if (!this.saved.delete(name)) throw new CheckpointNotFound(`no checkpoint named "${name}"`);
  }
}

/**
 * posts and list (no database needed) served by startBacklot, with an admin in front of them; its reset and
 * checkpoints go to a CounterState, or with `realState` to the services' own (what `backlot serve` wires).
 */
export async function startAdminFixture(
  admin: Partial<AdminOptions> = {},
  env: Record<string, string> = {},
  realState = false,
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-admin-'));
  const fullEnv = {
    BACKLOT_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LIST_PORT: '0',
    POSTS_PORT: '0',
    LIST_DELAY_MS: '0',
    ...env,
  };
  const global = globalSettings(fullEnv);
  const plans = planServices([findService('posts')!, findService('list')!], fullEnv, global);
  const backlot: Backlot = await startBacklot(plans, global, pino({ level: 'silent' }));
  const state = new CounterState(['posts', 'list']);
  let running: RunningAdmin;
  try {
    running = await startAdmin({
      services: backlot.services,
      faultHeaders: backlot.faultHeaders,
      state: realState ? backlot.state : state,
      host: '127.0.0.1',
      port: 0,
      ...admin,
    });
  } catch (error) {
    await backlot.close();
    throw error;
  }
  const service = (id: string) => backlot.services.find((s) => s.id === id)!;
  return {
    backlot,
    dataDir,
    admin: running,
    state,
    service,
    async close() {
      await running.close();
      await backlot.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** This machine's first address that is not loopback, to call the admin as a remote client would. */
export const externalAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
