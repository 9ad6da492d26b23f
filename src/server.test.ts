import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import pino from 'pino';
import { freePort } from '../support/postgres.js';
import { globalSettings } from './config.js';
import { DatabaseError } from './platform/database.js';
import { planServices, startBacklot } from './server.js';
import { findService } from './services/index.js';

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

test('services start side by side; when the database cannot be opened, those already listening are closed', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-server-'));
  try {
    const [listPort, employeesPort] = await Promise.all([freePort(), freePort()]);
    const env = {
      BACKLOT_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LIST_PORT: String(listPort),
      EMPLOYEES_PORT: String(employeesPort),
      DATABASE_URL: 'postgres://u:p@127.0.0.1:1/db',
    };
    const global = globalSettings(env);
    const plans = planServices([findService('list')!, findService('employees')!], env, global);
    await assert.rejects(
      startBacklot(plans, global, pino({ level: 'silent' })),
      (error) => error instanceof DatabaseError && /connection refused/.test(error.message),
    );
    assert.equal(await canListen(listPort), true, 'the list service (no database) was closed again');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
