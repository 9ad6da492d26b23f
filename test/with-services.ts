import { spawn } from 'node:child_process';
import { startPostgres } from '../support/postgres.js';
import { startS3 } from '../support/s3.js';

/**
 * Runs a command with a throwaway TLS PostgreSQL started for it:
 *   tsx test/with-services.ts -- npm test
 * The command sees BACKLOT_TEST_DATABASE_URL and BACKLOT_TEST_DATABASE_CA; every test database is created there.
 * An S3-compatible server (s3rver, path-style) runs too: BACKLOT_TEST_S3_ENDPOINT, _BUCKET, _REGION, _ACCESS_KEY
 * and _SECRET_KEY point at it, so the profiles tests store their uploads there instead of on disk.
 */
const separator = process.argv.indexOf('--');
const command = separator >= 0 ? process.argv.slice(separator + 1) : [];
if (command.length === 0) {
  process.stderr.write('usage: tsx test/with-services.ts -- <command...>\n');
  process.exit(2);
}

const postgres = await startPostgres({ tls: true });
process.stdout.write(`PostgreSQL with TLS on 127.0.0.1:${postgres.port}\n`);
const s3 = await startS3();
process.stdout.write(`S3 (s3rver) on ${s3.endpoint}, bucket ${s3.bucket}\n`);
const child = spawn(command[0], command.slice(1), {
  stdio: 'inherit',
  env: {
    ...process.env,
    BACKLOT_TEST_DATABASE_URL: postgres.url,
    BACKLOT_TEST_DATABASE_CA: postgres.caFile,
    BACKLOT_TEST_S3_ENDPOINT: s3.endpoint,
    BACKLOT_TEST_S3_BUCKET: s3.bucket,
    BACKLOT_TEST_S3_REGION: s3.region,
    BACKLOT_TEST_S3_ACCESS_KEY: s3.accessKey,
    BACKLOT_TEST_S3_SECRET_KEY: s3.secretKey,
  },
});
const code: number = await new Promise((resolve) =>
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
);
await s3.stop();
await postgres.stop();
process.exit(code);
