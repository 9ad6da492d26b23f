import type { LightMyRequestResponse } from 'fastify';
import { runCommand } from '../src/platform/commands.js';
import { content } from '../src/services/content/index.js';
import { seededPosts } from '../src/services/content/seed.js';
import type { ContentSettings } from '../src/services/content/settings.js';
import { startTestService, type TestService, type TestServiceOptions } from './service.js';

export const roles = ['admin', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Login = (typeof roles)[number];

/** The seeded posts everyone may read (status publish), in id order: counts in tests derive from the seed. */
export const publishedPosts = seededPosts.filter((post) => post.status === 'publish');
export const published = publishedPosts.length;

/** Seeded user ids, in seed order. */
export const ids: Record<Login, number> = { admin: 1, editor: 2, author: 3, contributor: 4, subscriber: 5 };

export interface ContentTest extends TestService<ContentSettings> {
  /** An Authorization header per seeded user (application passwords made with the operator command). */
  auth: Record<Login, string>;
  adminPassword: string;
}

export const basic = (login: string, password: string) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

export async function startContent(options: TestServiceOptions = {}): Promise<ContentTest> {
  const service = await startTestService(content, options);
  const adminPassword = /application password "([^"]+)"/.exec(service.banner.join('\n'))?.[1] ?? '';
  const auth = {} as Record<Login, string>;
  for (const login of roles) {
    const password =
      login === 'admin'
        ? adminPassword
        : await runCommand(content, ['app-password', 'create', '--user', login], service.ctx);
    auth[login] = basic(login, password);
  }
  return Object.assign(service, { auth, adminPassword });
}

/** Response bodies as tests read them: any shape, checked by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test bodies are asserted field by field.
export type Json = any;
export const json = (response: LightMyRequestResponse): Json => response.json();

export const api = '/wp-json/wp/v2';

/**
 * The bytes behind a media file's URL: the bucket's own answer when the tests run on S3
 * (BACKLOT_TEST_S3_ENDPOINT), else backlot's route for the embedded store.
 */
export async function fetchStored(t: ContentTest, url: string) {
  if (process.env.BACKLOT_TEST_S3_ENDPOINT) {
    const res = await fetch(url);
    return {
      status: res.status,
      body: Buffer.from(await res.arrayBuffer()),
      type: res.headers.get('content-type'),
    };
  }
  const res = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
  return { status: res.statusCode, body: res.rawPayload, type: res.headers['content-type'] };
}
