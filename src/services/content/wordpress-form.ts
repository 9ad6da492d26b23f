import { readFileSync } from 'node:fs';
import type { RouteSpec } from './route-spec.js';
import { argWord, propertyWord } from './route-words.js';

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
 * test/wordpress-routes.ts without WordPress's sentences; the sentences are backlot's (its own schemas' or
 * route-words.ts).
 */
const recorded: Recorded = JSON.parse(
  readFileSync(new URL('./wordpress-routes.json', import.meta.url), 'utf8'),
);

const wholeLists = new Set(['/wp/v2/posts', '/wp/v2/pages', '/wp/v2/media']);
const sameMethods = (a: string[], b: string[]) => a.join() === b.join();

/** The collection a route belongs to, which picks the sentences (see route-words.ts). */
function resourceOf(path: string): string {
  if (path.includes('/application-passwords')) return 'application-passwords';
  if (path.includes('/revisions')) return 'revisions';
  return /^\/wp\/v2\/([a-z-]+)/.exec(path)?.[1] ?? '';
}

type Schema = Record<string, unknown> & { properties?: Record<string, Schema> | [] };

/** Each property (and nested one) with a sentence: `own` (backlot's schema) first, then route-words.ts. */
function describeProperties(
  properties: Record<string, Schema> | [] | undefined,
  word: (path: string) => string | undefined,
  prefix = '',
): Record<string, Schema> | [] | undefined {
  if (!properties || Array.isArray(properties)) return properties;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const description = word(`${prefix}${name}`);
      const nested = describeProperties(property.properties, word, `${prefix}${name}.`);
      return [
        name,
        {
          ...(description ? { description } : {}),
          ...property,
          ...(nested ? { properties: nested } : {}),
        },
      ];
    }),
  );
}

/**
 * WordPress's arguments, each with backlot's own sentence (from its schemas, else route-words.ts). One default
 * is backlot's: leaving `per_page` out of a list of posts, pages or media means the whole list (the seed's
 * rule), not pages of 10.
 */
function describeArgs(path: string, methods: string[], wordpress: Args, own: Record<string, unknown>): Args {
  const resource = resourceOf(path);
  const mode = methods.includes('POST') ? 'write' : 'read';
  return Object.fromEntries(
    Object.entries(wordpress).map(([name, theirs]) => {
      const mine = (own[name] as { description?: unknown } | undefined)?.description;
      let arg: Schema = theirs;
      if (name === 'per_page' && wholeLists.has(path)) {
        const { default: _tens, ...rest } = arg;
        arg = rest;
      }
      const description = typeof mine === 'string' ? mine : argWord(resource, mode, name);
      const nested = describeProperties(arg.properties, (p) => propertyWord('', `${name}.${p}`));
      return [
        name,
        { ...(description ? { description } : {}), ...arg, ...(nested ? { properties: nested } : {}) },
      ];
    }),
  );
}

/** A resource schema with sentences: backlot's own where its schema has one, else route-words.ts. */
function describeSchema(schema: Schema, own: Schema | undefined): Schema {
  const ownProperties = (own?.properties ?? {}) as Record<string, { description?: unknown }>;
  const title = String(schema.title);
  const word = (path: string) => {
    const mine = path.includes('.') ? undefined : ownProperties[path]?.description;
    return typeof mine === 'string' ? mine : propertyWord(title, path);
  };
  return { ...schema, properties: describeProperties(schema.properties, word) ?? {} };
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
      args: describeArgs(spec.path, own.methods, theirs.args, own.args as Record<string, unknown>),
    };
  });
  const theirs = twin.schema ? recorded.schemas[twin.schema] : undefined;
  const schema = theirs ? describeSchema(theirs, spec.schema) : spec.schema;
  return { ...spec, endpoints, ...(schema ? { schema } : {}) };
}

/** A schema's links point at this site's API (recorded as `{api}`). */
export function schemaForSite(schema: Record<string, unknown>, api: string): Record<string, unknown> {
  const text = JSON.stringify(schema);
  return text.includes('{api}') ? JSON.parse(text.replaceAll('{api}', api)) : schema;
}
