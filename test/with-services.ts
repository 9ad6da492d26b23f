import { spawn } from 'node:child_process';
import { startPostgres } from './postgres.js';

/**
 * Runs a command with a throwaway TLS PostgreSQL started for it:
 *   tsx test/with-services.ts -- npm test
 * The command sees BACKLOT_TEST_DATABASE_URL and BACKLOT_TEST_DATABASE_CA; every test database is created there.
 */
const separator = process.argv.indexOf('--');
const command = separator >= 0 ? process.argv.slice(separator + 1) : [];
if (command.length === 0) {
  process.stderr.write('usage: tsx test/with-services.ts -- <command...>\n');
  process.exit(2);
}

const postgres = await startPostgres({ tls: true });
process.stdout.write(`PostgreSQL with TLS on 127.0.0.1:${postgres.port}\n`);
const child = spawn(command[0], command.slice(1), {
  stdio: 'inherit',
  env: {
    ...process.env,
    BACKLOT_TEST_DATABASE_URL: postgres.url,
    BACKLOT_TEST_DATABASE_CA: postgres.caFile,
  },
});
const code: number = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await postgres.stop();
process.exit(code);
