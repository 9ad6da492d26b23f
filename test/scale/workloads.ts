import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Database } from '../../src/platform/database.js';
import { multipart, png, uploadParts } from '../profiles.js';

// The scale-out run's clients (test/scale/run.ts), one kind per stateful service. Each sends requests through
// HAProxy until told to stop, notes every answer, and remembers what was acknowledged; its check then reads the
// database (and the bucket) and says what, of that, is missing.

export type Service = 'things' | 'machines' | 'employees' | 'content' | 'profiles';
export interface Entry {
  at: number;
  service: Service;
  ok: boolean;
  /** The HTTP status; 0 when no answer came; 'errors' for a GraphQL answer carrying errors. */
  status: number | string;
}
export interface Run {
  front: Record<Service, number>;
  running: () => boolean;
  log: Entry[];
}

export const machinesToken = `dop_v1_${'a'.repeat(64)}`;
export const employeesAccount = 'scale:scale-password-1:editor';
export const contentAppPassword = 'scale0scale0scale0scale0';
const employeesAuth = `Basic ${Buffer.from('scale:scale-password-1').toString('base64')}`;
const contentAuth = `Basic ${Buffer.from(`admin:${contentAppPassword}`).toString('base64')}`;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The fields of the services' answers the clients read. */
interface Answer {
  id?: number;
  droplet?: { id: number };
  data?: { id?: number; name?: string; createUser?: { id: string }; uploadProfileImage?: boolean } | null;
  errors?: unknown[];
}

async function send(run: Run, service: Service, path: string, init: RequestInit, expected: number) {
  const res = await fetch(`http://127.0.0.1:${run.front[service]}${path}`, init).catch(() => undefined);
  const body = res ? await res.text().catch(() => '') : '';
  const entry: Entry = { at: Date.now(), service, ok: res?.status === expected, status: res?.status ?? 0 };
  run.log.push(entry);
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {}
  return { entry, json: json as Answer | undefined };
}
const postJson = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** things: signups with fresh usernames; each remembers when it was sent and when it was acknowledged. */
export interface Signup {
  username: string;
  sent: number;
  acknowledged?: number;
}
export async function signups(run: Run, w: number, all: Signup[]) {
  for (let n = 0; run.running(); n++) {
    const signup: Signup = { username: `u${w}-${n}`, sent: Date.now() };
    const { entry } = await send(
      run,
      'things',
      '/signup',
      postJson({ username: signup.username, password: 'correct horse 1' }),
      200,
    );
    if (entry.ok) signup.acknowledged = entry.at;
    all.push(signup);
  }
}

/** machines: droplets created and deleted again (to stay under the account's limit). */
export async function droplets(run: Run, w: number, created: number[]) {
  const auth = { authorization: `Bearer ${machinesToken}` };
  for (let n = 0; run.running(); n++) {
    const body = { name: `m${w}-${n}`, region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' };
    const { entry, json } = await send(run, 'machines', '/v2/droplets', postJson(body, auth), 202);
    if (!entry.ok) continue;
    const id = json?.droplet?.id as number;
    created.push(id);
    for (let tries = 0; tries < 20; tries++) {
      const gone = await send(
        run,
        'machines',
        `/v2/droplets/${id}`,
        { method: 'DELETE', headers: auth },
        204,
      );
      if (gone.entry.ok) break;
      await pause(100);
    }
  }
}
export async function checkDroplets(db: Database, created: number[]) {
  const { rows } = await db.query<{ resource_id: number; n: number; applied: number }>(
    `SELECT resource_id, count(*)::int AS n, count(*) FILTER (WHERE applied)::int AS applied FROM machines.actions
      WHERE type = 'create' GROUP BY resource_id`,
  );
  const byMachine = new Map(rows.map((a) => [a.resource_id, a]));
  return created.filter((id) => byMachine.get(id)?.n !== 1 || byMachine.get(id)?.applied !== 1).length;
}

/**
 * employees: each client owns one record and increments a counter in its name, read-modify-write, each read and
 * write going to whichever process HAProxy picks. Employees has no conditional update (no ETag or If-Match), so
 * writers never share a record; what is checked is that a read never returns less than the last acknowledged
 * write (from any process) and that the stored counter is at least the last acknowledged one.
 */
export interface Counter {
  id?: number;
  acknowledged: number;
  attempted: number;
  increments: number;
  staleReads: number;
}
export async function counters(run: Run, w: number, counter: Counter) {
  const auth = { authorization: employeesAuth };
  const named = (n: number) => ({ name: `scale-${w}-${n}`, age: 30, image: null });
  while (counter.id === undefined && run.running()) {
    const { entry, json } = await send(run, 'employees', '/api/2/create', postJson(named(0), auth), 201);
    if (entry.ok) counter.id = json?.data?.id as number;
  }
  while (run.running()) {
    const read = await send(run, 'employees', `/api/2/employee/${counter.id}`, { headers: auth }, 200);
    if (!read.entry.ok) continue;
    const n = Number(String(read.json?.data?.name).split('-').pop());
    if (n < counter.acknowledged) counter.staleReads++;
    counter.attempted = Math.max(counter.attempted, n + 1);
    const { entry } = await send(
      run,
      'employees',
      `/api/2/update/${counter.id}`,
      { ...postJson(named(n + 1), auth), method: 'PUT' },
      200,
    );
    if (entry.ok) {
      counter.acknowledged = n + 1;
      counter.increments++;
    }
  }
}
/** Records whose stored counter is below the last acknowledged write, or above any write sent. */
export async function checkCounters(db: Database, all: Counter[]) {
  const { rows } = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM employees.employees WHERE id = ANY($1::int[])',
    [all.map((c) => c.id)],
  );
  const stored = new Map(rows.map((r) => [r.id, Number(r.name.split('-').pop())]));
  return all.filter((c) => {
    const n = stored.get(c.id as number) ?? -1;
    return n < c.acknowledged || n > c.attempted;
  }).length;
}

/**
 * content: posts created, updated (which writes a revision) and commented on with the admin's application
 * password; every fourth post is then deleted for good. Remembers each acknowledged post's last acknowledged title.
 */
export interface ContentWrites {
  posts: Map<number, { title: string; sentTitles: string[] }>;
  comments: { id: number; post: number }[];
  deleted: number[];
}
export async function articles(run: Run, w: number, writes: ContentWrites) {
  const auth = { authorization: contentAuth };
  const api = '/wp-json/wp/v2';
  for (let n = 0; run.running(); n++) {
    const title = `scale ${w}.${n}`;
    const body = { title, content: `Post ${w}.${n}.`, status: 'publish' };
    const created = await send(run, 'content', `${api}/posts`, postJson(body, auth), 201);
    if (!created.entry.ok) continue;
    const id = created.json?.id as number;
    const post = { title, sentTitles: [title] };
    writes.posts.set(id, post);
    const edited = `${title} edited`;
    post.sentTitles.push(edited);
    const updated = await send(run, 'content', `${api}/posts/${id}`, postJson({ title: edited }, auth), 200);
    if (updated.entry.ok) post.title = edited;
    const comment = { post: id, content: `Comment ${w}.${n}.` };
    const commented = await send(run, 'content', `${api}/comments`, postJson(comment, auth), 201);
    if (commented.entry.ok) writes.comments.push({ id: commented.json?.id as number, post: id });
    if (n % 4 !== 3) continue;
    const removed = await send(
      run,
      'content',
      `${api}/posts/${id}?force=true`,
      { method: 'DELETE', headers: auth },
      200,
    );
    if (removed.entry.ok) writes.deleted.push(id);
  }
}
/** Acknowledged posts missing or not showing an acknowledged (or later sent) title; comments missing; revisions left. */
export async function checkArticles(db: Database, writes: ContentWrites) {
  const deleted = new Set(writes.deleted);
  const { rows: posts } = await db.query<{ id: number; title: string }>(
    `SELECT id, title FROM content.posts WHERE id = ANY($1::int[])`,
    [[...writes.posts.keys()]],
  );
  const stored = new Map(posts.map((p) => [p.id, p.title]));
  let postsLost = 0;
  for (const [id, post] of writes.posts) {
    if (deleted.has(id)) continue;
    const title = stored.get(id);
    // The update may have been stored while its answer was lost (a killed process): either title is right then.
    if (title === undefined || !post.sentTitles.slice(post.sentTitles.indexOf(post.title)).includes(title))
      postsLost++;
  }
  const deletedStill = writes.deleted.filter((id) => stored.has(id)).length;
  const { rows: comments } = await db.query<{ id: number }>(
    'SELECT id FROM content.comments WHERE id = ANY($1::int[])',
    [writes.comments.map((c) => c.id)],
  );
  const commentIds = new Set(comments.map((c) => c.id));
  // A post's comments go with it.
  const commentsLost = writes.comments.filter((c) => !deleted.has(c.post) && !commentIds.has(c.id)).length;
  const { rows: orphans } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM content.posts r WHERE r.type = 'revision'
      AND NOT EXISTS (SELECT 1 FROM content.posts p WHERE p.id = r.parent)`,
  );
  return { postsLost, deletedStill, commentsLost, orphans: orphans[0].n };
}

/** profiles: users created with GraphQL, then each given an image (uploaded to S3 through another request). */
export interface Profiles {
  users: string[];
  images: Map<string, string>;
}
export async function portraits(run: Run, w: number, made: Profiles) {
  const createUser = 'mutation ($input: NewUser!) { createUser(input: $input) { id } }';
  for (let n = 0; run.running(); n++) {
    const input = { fullName: `Scale ${w}.${n}`, email: `scale-${w}-${n}@example.com` };
    const created = await send(
      run,
      'profiles',
      '/query',
      postJson({ query: createUser, variables: { input } }),
      200,
    );
    const id = created.json?.data?.createUser?.id as string | undefined;
    if (!created.entry.ok || !id || created.json?.errors) {
      if (created.entry.ok) Object.assign(created.entry, { ok: false, status: 'errors' });
      continue;
    }
    made.users.push(id);
    if (n % 2) continue;
    const { body, contentType } = multipart(uploadParts(id, png, `p${w}-${n}.png`));
    const upload = await send(
      run,
      'profiles',
      '/query',
      { method: 'POST', headers: { 'content-type': contentType }, body },
      200,
    );
    if (upload.entry.ok && upload.json?.data?.uploadProfileImage === true)
      made.images.set(id, `${id}-p${w}-${n}.png`);
    else if (upload.entry.ok) Object.assign(upload.entry, { ok: false, status: 'errors' });
  }
}
/** Acknowledged users missing; acknowledged images whose user does not point at them or whose object is gone. */
export async function checkPortraits(
  db: Database,
  made: Profiles,
  s3: { endpoint: string; region: string; bucket: string; accessKey: string; secretKey: string },
) {
  const { rows } = await db.query<{ id: string; img_uri: string }>(
    'SELECT id::text, img_uri FROM profiles.users WHERE id::text = ANY($1::text[])',
    [made.users],
  );
  const stored = new Map(rows.map((r) => [r.id, r.img_uri]));
  const usersLost = made.users.filter((id) => !stored.has(id)).length;
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKey, secretAccessKey: s3.secretKey },
  });
  let imagesLost = 0;
  for (const [id, key] of made.images) {
    const size = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key })).then(
      (o) => o.ContentLength,
      () => undefined,
    );
    if (!stored.get(id)?.endsWith(encodeURIComponent(key)) || size !== png.length) imagesLost++;
  }
  client.destroy();
  return { usersLost, imagesLost };
}
