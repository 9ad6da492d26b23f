/** Sending one request to WordPress and to backlot, and naming what differs in what a client reads. */

export interface Probe {
  method: string;
  /** From the site root, e.g. `/wp-json/wp/v2/posts?per_page=2` or `/?rest_route=/wp/v2/posts`. */
  path: string;
  /** Anonymous by default; a seeded login signs in with each side's application password, `wrong` with a wrong one. */
  as?: 'admin' | 'editor' | 'author' | 'contributor' | 'subscriber' | 'wrong';
  /** Sent as JSON, or as a form when `form` is set (an object or `[name, value]` pairs), or as raw text. */
  body?: unknown;
  form?: boolean;
  /**
   * A media upload: the raw body with `Content-Disposition`, or a multipart form whose `file` part is the file;
   * its bytes are `data`, or a 1×1 PNG or a short text by `type`.
   */
  /** Waited before sending, so that writes fall in different seconds on both sites (WordPress keeps whole seconds). */
  waitMs?: number;
  file?: { name: string; type: string; multipart?: boolean; data?: Buffer };
}

/** A 1×1 PNG, and the text file uploads send. */
const uploads: Record<string, Buffer> = {
  'image/png': Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
  'text/plain': Buffer.from('A note uploaded by the differential test.\n'),
};

export interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** One difference: `key` is stable (kind and place), `detail` adds the two values. */
export interface Difference {
  key: string;
  detail: string;
}

/**
 * The headers clients read, and the caching/robots headers core sends on every REST answer. Content-Type is
 * compared without case (`UTF-8` and `utf-8` are the same).
 */
export const comparedHeaders = [
  'x-wp-total',
  'x-wp-totalpages',
  'link',
  'allow',
  'content-type',
  'cache-control',
  'x-content-type-options',
  'x-robots-tag',
];

export const probeName = (probe: Probe) =>
  `${probe.as ? `${probe.as} ` : ''}${probe.method} ${probe.path}${
    probe.file ? ` ${probe.file.multipart ? 'multipart' : 'raw'} ${probe.file.name} ${probe.file.type}` : ''
  }${probe.body === undefined ? '' : ` ${probe.form ? 'form ' : ''}${JSON.stringify(probe.body)}`}`;

/**
 * Both sites' own addresses become `http://site`, so links compare, and preview nonces `NONCE`. Gravatar URLs too: WordPress picks
 * `http://N.gravatar.com` over plain http and `https://secure.gravatar.com` over https; backlot always the latter.
 */
function localize(value: unknown, base: string): unknown {
  if (typeof value === 'string') {
    return (
      value
        .replaceAll(base, 'http://site')
        // Preview nonces come from each site's secret salts (autosaves' preview_link).
        .replace(/preview_nonce=[0-9a-f]{10}/, 'preview_nonce=NONCE')
        .replace(/^http:\/\/\d\.gravatar\.com\//, 'https://secure.gravatar.com/')
    );
  }
  if (Array.isArray(value)) return value.map((item) => localize(item, base));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localize(v, base)]));
  }
  return value;
}

/** `authorizations` has an `Authorization` header per seeded login. */
export async function ask(
  base: string,
  authorizations: Record<string, string>,
  probe: Probe,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (probe.as === 'wrong') headers.authorization = `Basic ${Buffer.from('admin:wrong').toString('base64')}`;
  else if (probe.as) headers.authorization = authorizations[probe.as] ?? '';
  let body: string | Buffer | FormData | undefined;
  if (probe.file) {
    const bytes = probe.file.data ?? uploads[probe.file.type] ?? Buffer.alloc(0);
    if (probe.file.multipart) {
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: probe.file.type }), probe.file.name);
      for (const [name, value] of Object.entries((probe.body as Record<string, string>) ?? {}))
        form.append(name, value);
      body = form;
    } else {
      body = bytes;
      headers['content-type'] = probe.file.type;
      headers['content-disposition'] = `attachment; filename="${probe.file.name}"`;
    }
  } else if (typeof probe.body === 'string') {
    body = probe.body;
    headers['content-type'] = 'application/json';
  } else if (probe.body !== undefined && probe.form) {
    body = new URLSearchParams(probe.body as Record<string, string> | [string, string][]).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (probe.body !== undefined) {
    body = JSON.stringify(probe.body);
    headers['content-type'] = 'application/json';
  }
  // `{site}` stands for the site's own address (oEmbed's `url=`), which differs between the two.
  const response = await fetch(base + probe.path.replaceAll('{site}', encodeURIComponent(base)), {
    method: probe.method,
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  const read = Object.fromEntries(
    comparedHeaders.map((name) => [name, localize(response.headers.get(name), base) as string | null]),
  );
  if (read['content-type']) read['content-type'] = read['content-type'].toLowerCase();
  return { status: response.status, headers: read, body: localize(parsed, base) };
}

const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const short = (value: unknown, limit = 70) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
};
const ids = (items: unknown[]) => items.map((item) => (item as { id?: unknown })?.id);

/** Dates written during the run (a new post's `date`, any write's `modified`) are "now" on both sides. */
const recent = (value: unknown) =>
  typeof value === 'string' &&
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value) &&
  Math.abs(Date.parse(`${value.slice(0, 19)}Z`) - Date.now()) < 86_400_000;

class Collector {
  readonly found = new Map<string, string>();
  add(key: string, detail: string) {
    if (!this.found.has(key)) this.found.set(key, detail);
  }

  keys(where: string, wp: Record<string, unknown>, backlot: Record<string, unknown>) {
    const missing = Object.keys(wp).filter((k) => !(k in backlot));
    const extra = Object.keys(backlot).filter((k) => !(k in wp));
    if (missing.length + extra.length === 0) return;
    const names = [...missing.map((k) => `-${k}`), ...extra.map((k) => `+${k}`)];
    // Long lists (the index's routes) are counted, so the key stays readable; the detail names them all.
    const list = names.length > 12 ? `-${missing.length} +${extra.length}` : names.join(' ');
    if (names.length > 12) {
      this.add(`keys ${where || '.'}: ${list}`, names.join(' '));
      return;
    }
    this.add(
      `keys ${where || '.'}: ${list}`,
      `WordPress has ${missing.length}, backlot adds ${extra.length}`,
    );
  }

  value(where: string, wp: unknown, backlot: unknown) {
    const type = kind(wp);
    if (type !== kind(backlot)) {
      this.add(`type ${where}: ${type}→${kind(backlot)}`, `${short(wp)} → ${short(backlot)}`);
      return;
    }
    if (type === 'object')
      return this.object(where, wp as Record<string, unknown>, backlot as Record<string, unknown>);
    if (type === 'array') {
      const [a, b] = [wp as unknown[], backlot as unknown[]];
      if (a.some((x) => kind(x) === 'object') || b.some((x) => kind(x) === 'object')) {
        const [idsA, idsB] = [ids(a), ids(b)];
        if (idsA.every((id) => typeof id === 'number') && idsB.every((id) => typeof id === 'number')) {
          // Lists of resources: which ones, in which order; then each one against its namesake.
          if (JSON.stringify(idsA) !== JSON.stringify(idsB)) {
            this.add(`ids ${where || '.'}`, `${short(idsA, 200)} → ${short(idsB, 200)}`);
          }
          for (const item of a) {
            const twin = b.find((other) => ids([other])[0] === ids([item])[0]);
            if (twin) this.value(`${where}[]`, item, twin);
          }
          return;
        }
        if (a.length !== b.length) this.add(`length ${where || '.'}`, `${a.length} → ${b.length}`);
        for (let i = 0; i < Math.min(a.length, b.length); i++) this.value(`${where}[]`, a[i], b[i]);
        return;
      }
    }
    if (recent(wp) && recent(backlot)) return;
    if (JSON.stringify(wp) !== JSON.stringify(backlot))
      this.add(`value ${where}`, `${short(wp)} → ${short(backlot)}`);
  }

  object(where: string, wp: Record<string, unknown>, backlot: Record<string, unknown>) {
    this.keys(where, wp, backlot);
    for (const key of Object.keys(wp)) {
      if (!(key in backlot)) continue;
      const place = where ? `${where}.${key}` : key;
      // Link relations and embedded resources: which ones are there is what clients rely on.
      if (key === '_links' || key === '_embedded') {
        const [a, b] = [wp[key], backlot[key]];
        if (kind(a) === 'object' && kind(b) === 'object') {
          this.keys(place, a as Record<string, unknown>, b as Record<string, unknown>);
          continue;
        }
      }
      this.value(place, wp[key], backlot[key]);
    }
  }
}

const isError = (body: unknown): body is { code: unknown; data?: { status?: unknown; params?: object } } =>
  kind(body) === 'object' && typeof (body as { code?: unknown }).code === 'string';

/** What a client would notice: status, error code, data.status, keys, types, values, and the headers it reads. */
export function compareAnswers(wp: Answer, backlot: Answer): Difference[] {
  const out = new Collector();
  if (wp.status !== backlot.status) out.add(`status ${wp.status}→${backlot.status}`, '');
  const [a, b] = [isError(wp.body) ? wp.body : undefined, isError(backlot.body) ? backlot.body : undefined];
  if (a || b) {
    // An error on either side: its code, status and which parameters it names are what clients branch on.
    if (a?.code !== b?.code) out.add(`code ${a?.code ?? '-'}→${b?.code ?? '-'}`, '');
    if (a && b && a.data?.status !== b.data?.status) {
      out.add('value data.status', `${a.data?.status} → ${b.data?.status}`);
    }
    const params = (e: typeof a) =>
      Object.keys(e?.data?.params ?? {})
        .sort()
        .join(',');
    if (a && b && a.code === b.code && params(a) !== params(b)) {
      out.add('value data.params', `${params(a)} → ${params(b)}`);
    }
  } else {
    out.value('', wp.body, backlot.body);
  }
  for (const name of comparedHeaders) {
    if (wp.headers[name] !== backlot.headers[name]) {
      out.add(`header ${name}`, `${short(wp.headers[name], 300)} → ${short(backlot.headers[name], 300)}`);
    }
  }
  return [...out.found].map(([key, detail]) => ({ key, detail }));
}
