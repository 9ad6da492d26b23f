import { readFileSync } from 'node:fs';
import type { RouteSpec } from './discovery.js';

type Args = Record<string, Record<string, unknown>>;
interface Endpoint {
  methods: string[];
  allow_batch?: unknown;
  /** `[]` when the route takes none (an empty PHP array). */
  args: Args | [];
}
interface Recorded {
  wordpress: string;
  routes: Record<string, { endpoints: Endpoint[]; schema?: string }>;
  schemas: Record<string, Record<string, unknown>>;
}

/**
 * WordPress 6.1's own description of each route backlot shares with it: argument types, enums, defaults,
 * formats, item and property shapes, and the resource schemas with their context lists and readonly flags. Clients
 * (wpapi's route discovery, code generators) read these, so they are WordPress's, recorded by
 * test/wordpress-routes.ts without WordPress's sentences; the sentences are backlot's (from its own schemas).
 */
const recorded: Recorded = JSON.parse(
  readFileSync(new URL('./wordpress-routes.json', import.meta.url), 'utf8'),
);

const wholeLists = new Set(['/wp/v2/posts', '/wp/v2/pages', '/wp/v2/media']);
const sameMethods = (a: string[], b: string[]) => a.join() === b.join();

/**
 * WordPress's arguments, each with backlot's own sentence when backlot's schema has one. One default is backlot's:
 * leaving `per_page` out of a list of posts, pages or media means the whole list (the seed's rule), not pages of 10.
 */
function withOwnDescriptions(path: string, wordpress: Args, own: Record<string, unknown>): Args {
  return Object.fromEntries(
    Object.entries(wordpress).map(([name, theirs]) => {
      const mine = own[name] as { description?: unknown } | undefined;
      let arg = theirs;
      if (name === 'per_page' && wholeLists.has(path)) {
        const { default: _tens, ...rest } = arg;
        arg = rest;
      }
      return [name, typeof mine?.description === 'string' ? { description: mine.description, ...arg } : arg];
    }),
  );
}

/**
 * A route as WordPress describes it. Backlot's methods stay (they are what it serves and what `Allow` is worked
 * out from): each endpoint WordPress has too takes WordPress's form, the others (and routes WordPress does not
 * have) keep backlot's.
 */
export function inWordPressForm(spec: RouteSpec): RouteSpec {
  const twin = recorded.routes[spec.path];
  if (!twin) return spec;
  const endpoints = spec.endpoints.map((own) => {
    const theirs = twin.endpoints.find((e) => sameMethods(e.methods, own.methods));
    if (!theirs) return own;
    if (Array.isArray(theirs.args)) return theirs;
    return {
      ...theirs,
      args: withOwnDescriptions(spec.path, theirs.args, own.args as Record<string, unknown>),
    };
  });
  const schema = twin.schema ? recorded.schemas[twin.schema] : spec.schema;
  return { ...spec, endpoints, ...(schema ? { schema } : {}) };
}

/** A schema's links point at this site's API (recorded as `{api}`). */
export function schemaForSite(schema: Record<string, unknown>, api: string): Record<string, unknown> {
  const text = JSON.stringify(schema);
  return text.includes('{api}') ? JSON.parse(text.replaceAll('{api}', api)) : schema;
}
