/**
 * Records WordPress 6.1's route descriptions (what `OPTIONS` and the index say of each route backlot serves) into
 * src/services/content/wordpress-routes.json, without WordPress's English sentences (GPL prose: backlot keeps its
 * own). Run after a WordPress upgrade or a new content route:
 *
 *   node --import tsx test/wordpress-routes.ts
 */
import { writeFileSync } from 'node:fs';
import { allRouteSpecs } from '../src/services/content/discovery.js';
import { startWordPress } from './wordpress.js';

const target = new URL('../src/services/content/wordpress-routes.json', import.meta.url);

/** A concrete URL for a route pattern, so WordPress answers its OPTIONS. */
const sample = (route: string) =>
  route
    .replace(/\(\?P<user_id>\(\?:\[\\d\]\+\|me\)\)/, 'me')
    .replace(/\(\?P<(id|parent)>\[\\d\]\+\)/g, '1')
    .replace(/\(\?P<type>[^)]*\)/, 'post')
    .replace(/\(\?P<status>[^)]*\)/, 'publish')
    .replace(/\(\?P<taxonomy>[^)]*\)/, 'category')
    .replace(/\(\?P<location>[^)]*\)/, 'primary')
    .replace(/\(\?P<namespace>[^)]*\)/, 'core')
    .replace(/\(\?P<name>[^)]*\)/, 'paragraph')
    .replace(/\(\?P<stylesheet>.*\)$/, 'twentytwentythree')
    .replace(/\(\?P<plugin>.*\)$/, 'hello')
    .replace(/\(\?P<uuid>[^)]*\)/, '00000000-0000-4000-8000-000000000000')
    .replace('/sidebars/(?P<id>[\\w-]+)', '/sidebars/wp_inactive_widgets')
    .replace('/widgets/(?P<id>[\\w\\-]+)', '/widgets/block-2')
    .replace('/widget-types/(?P<id>[a-zA-Z0-9_-]+)', '/widget-types/block');

/** Backlot's own words for the action links of a post schema (WordPress's titles are its prose). */
const linkTitles: Record<string, string> = {
  'action-publish': 'Present when the caller may publish the post.',
  'action-unfiltered-html': 'Present when the caller may save HTML and scripts unfiltered.',
  'action-sticky': 'Present when the caller may make the post sticky.',
  'action-assign-author': 'Present when the caller may give the post another author.',
  'action-assign-categories': 'Present when the caller may set the post’s categories.',
  'action-create-categories': 'Present when the caller may create categories.',
  'action-assign-tags': 'Present when the caller may set the post’s tags.',
  'action-create-tags': 'Present when the caller may create tags.',
  'action-assign-menus': 'Present when the caller may put the item in a menu.',
  'action-create-menus': 'Present when the caller may create menus.',
  'menu-item-object': 'The post or term the menu item links to.',
};

/** Drops every `description` sentence (not a property or argument named `description`) and localizes URLs. */
function withoutProse(value: unknown, api: string): unknown {
  if (typeof value === 'string') return value.replaceAll(api, '{api}');
  if (Array.isArray(value)) return value.map((item) => withoutProse(item, api));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(
      ([key, v]) => !(key === 'description' && typeof v === 'string'),
    );
    const out = Object.fromEntries(entries.map(([key, v]) => [key, withoutProse(v, api)]));
    if (typeof out.rel === 'string' && typeof out.title === 'string') {
      const title = linkTitles[out.rel.replace('https://api.w.org/', '')];
      if (!title) throw new Error(`no backlot title for the link relation ${out.rel}`);
      out.title = title;
    }
    return out;
  }
  return value;
}

const wordpress = await startWordPress();
try {
  const authorization = `Basic ${Buffer.from(`admin:${wordpress.adminAppPassword}`).toString('base64')}`;
  const api = `${wordpress.url}/wp-json`;
  const ask = async (route: string, method: string) => {
    const response = await fetch(`${api}${route}`, { method, headers: { authorization } });
    if (response.status !== 200) throw new Error(`${method} ${route}: ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const routes: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const route of ['/', '/wp/v2', ...allRouteSpecs().map((spec) => spec.path)]) {
    const answer = withoutProse(await ask(sample(route), 'OPTIONS'), api) as Record<string, unknown>;
    if (answer.namespace === undefined) continue; // a backlot-only route: it keeps its own description
    const schema = answer.schema as { title: string } | undefined;
    // Autosaves share their revisions' title (`post-revision`) with one more property: kept under their own key.
    const key =
      schema && (route.endsWith('/autosaves') || route.includes('/autosaves/'))
        ? `${schema.title} autosave`
        : schema?.title;
    if (schema && key) {
      const known = schemas[key];
      if (known && JSON.stringify(known) !== JSON.stringify(schema))
        throw new Error(`two schemas titled ${key}`);
      schemas[key] = schema;
    }
    routes[route] = { endpoints: answer.endpoints, ...(key ? { schema: key } : {}) };
  }
  const data = { wordpress: wordpress.version, routes, schemas };
  writeFileSync(target, `${JSON.stringify(data, null, 1)}\n`);
  console.log(`recorded ${Object.keys(routes).length} routes of WordPress ${wordpress.version}`);
} finally {
  await wordpress.stop();
}
