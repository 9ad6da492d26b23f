import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { basic, type ContentTest, published, startContent } from '../../../test/content.js';
import {
  requireWordPress,
  startAlongside,
  type TestWordPress,
  wordPressSkip,
} from '../../../test/wordpress.js';
import {
  type Answer,
  ask,
  compareAnswers,
  type Difference,
  type Probe,
  probeName,
} from '../../../test/wordpress-compare.js';
import {
  blockEditorRoutes,
  missingRoute,
  notYetBuilt,
  reads,
  writes,
} from '../../../test/wordpress-probes.js';

// WordPress 6.1 from Debian's packages, seeded like backlot's first start (test/wordpress.ts), is the reference:
// the same requests must get the same statuses, error codes, body keys, types and values, and the same headers
// (X-WP-Total, X-WP-TotalPages, Link, Allow, Content-Type), except where listed below.

/**
 * Differences kept on purpose (mirrored in docs/content.md, "Differences from WordPress"). Each matches probes by
 * name and differences by key (see test/wordpress-compare.ts).
 */
const deliberate: { probe: RegExp; difference: RegExp; reason: string }[] = [
  {
    probe: /^GET \/wp-json\/wp\/v2\/posts$/,
    difference: /^(ids \.|header x-wp-totalpages|header link)$/,
    reason: 'the spec: without per_page the full list comes back (WordPress pages by 10)',
  },
  {
    probe: /^editor DELETE \/wp-json\/wp\/v2\/users\/4$/,
    difference: /^(status|code|value data\.status|value message|value data\.params|header allow)/,
    reason:
      'the spec: without force a user is trashed, so reassign is not required first (WordPress: 400 missing reassign)',
  },
  {
    probe: /^admin POST \/wp-json\/wp\/v2\/(users \{"username":"newbie","email":"other|tags \{"name":""\})/,
    difference: /^(status|value data\.status)/,
    reason:
      'bad input is never a 5xx: WordPress answers these WP_Errors without a status as 500, backlot 400',
  },
  {
    probe: /"parent":4,"content":"Wrong parent"/,
    difference: /./,
    reason:
      'a reply must be to a comment of the same post (400 rest_comment_invalid_parent); WordPress 6.1 takes any',
  },
  {
    probe: /"categories":\[999\]/,
    difference: /./,
    reason: 'an unknown term id is 400 rest_invalid_param; WordPress drops it silently and answers 201',
  },
  {
    probe: /"title","Form arrays"/,
    difference: /^value (id|guid\.rendered|guid\.raw|link)$/,
    reason: 'one id lower: WordPress made a post of the unknown-term request above, which backlot refuses',
  },
  {
    probe: /_jsonp=/,
    difference: /./,
    reason:
      'the issue: JSONP is off (400 rest_callback_disabled); WordPress serves it, letting any site read the API',
  },
  {
    probe: /^(\w+ )?(GET \/wp-json\/(wp\/v2)?$|OPTIONS \/)/,
    difference: /^(keys .+: [-+]description|value [^ ]+\.description|value schema\.links\[\]\.title)$/,
    reason:
      'route descriptions are in backlot’s own words (WordPress’s sentences are GPL prose; backlot is MIT)',
  },
  {
    probe: /^(\w+ )?(GET \/wp-json\/(wp\/v2)?$|OPTIONS \/)/,
    difference: /^keys .+\.args\.per_page: -default$/,
    reason: 'the spec: without per_page the full list of posts, pages, media comes back (no default of 10)',
  },
  {
    probe: /^GET \/wp-json\/$/,
    difference: /^(value namespaces|keys authentication\.application-passwords\.endpoints: -authorization)$/,
    reason:
      'the index names only what backlot serves: no oEmbed or site-health namespace, no wp-admin page to authorize apps',
  },
  {
    probe: /\/wp-json\/wp\/v2\/media/,
    difference: /^value (\[\]\.|previous\.)?media_details\.sizes\.[^.]+\.filesize$/,
    reason:
      'resized copies are made by sharp (libvips), not PHP GD: the same sizes and names, encoded to other bytes',
  },
  {
    probe: /orderby=author|orderby=count|orderby=relevance/,
    difference: /^ids \.$/,
    reason:
      "equal authors, counts or relevance: WordPress leaves them in MariaDB's internal order; backlot orders them (by id, or by date for relevance), so pages never repeat or skip one",
  },
  {
    probe: /^(author|contributor) GET \/wp-json\/wp\/v2\/(posts|blocks)\?status=draft/,
    difference: /^header x-wp-total(pages)?$/,
    reason:
      "X-WP-Total counts the drafts the caller may read; WordPress counts everyone's, then leaves out those it may not",
  },
  {
    probe: /^GET \/wp-json\/(wp\/v2)?$/,
    difference: /^keys routes/,
    reason:
      'the index lists what backlot serves: no oEmbed or site-health routes, none of the editors’ (/media/{id}/edit, /media/{id}/post-process), and backlot’s own /users/{id}/restore (the spec’s user trash)',
  },
  {
    probe: /^(\w+ )?GET \/wp-json\/wp\/v2\/types(\?context=edit)?$/,
    difference: /^keys \.: -/,
    reason:
      'the block editor’s types not served (wp_template, wp_template_part) are left out with their routes',
  },
  {
    probe: /\/block-types/,
    difference: /^value (\[\]\.)?description$/,
    reason:
      'block types are data recorded from WordPress 6.1 without their description sentences (GPL prose; backlot is MIT)',
  },
  {
    probe:
      /^(admin )?GET \/wp-json\/wp\/v2\/themes(\?status=active)?$|^admin GET \/wp-json\/wp\/v2\/themes\/twentytwentythree$/,
    difference: /^keys (\[\]\.)?_links: -wp:user-global-styles -curies$/,
    reason:
      'no global styles (a block editor route left out), so the active theme does not link its global-styles post',
  },
  {
    probe: /\/wp-json\/wp\/v2\/(widgets|widget-types\/block\/encode)/,
    difference: /^value (\[\]\.|previous\.)?instance\.hash$/,
    reason:
      'an encoded widget instance is vouched for by a hash keyed with each site’s own secret (WordPress: its salts)',
  },
  {
    probe: /\/wp-json\/wp\/v2\/widget-types(\/block)?$/,
    difference: /^value (\[\]\.)?description$/,
    reason:
      'widget type descriptions are backlot’s words (WordPress’s sentences are GPL prose; backlot is MIT)',
  },
  {
    probe: /^admin POST \/wp-json\/wp\/v2\/widget-types\/block\/render/,
    difference: /^value preview$/,
    reason:
      'the widget preview page is the widget alone: WordPress frames it in the theme’s whole page head (scripts, styles)',
  },
  {
    probe: /^admin POST \/wp-json\/wp\/v2\/plugins \{"slug":"hello-dolly"\}$/,
    difference: /^header allow$/,
    reason: 'backlot sends no Allow with a 5xx (the offline install is 500, as WordPress); WordPress does',
  },
  {
    probe: /^(\w+ )?GET \/wp-json\/oembed\/1\.0\/(embed|proxy)\?url=\{site\}/,
    difference: /^value html$/,
    reason:
      'the embed html’s data-secret is random on each answer, and backlot leaves out core’s inline wp-embed script (GPL code)',
  },
  {
    probe: /application-passwords/,
    difference: /^value (\[\]\.)?uuid$/,
    reason: 'each site made its own application password for the test: its uuid is random',
  },
  {
    probe: /"content":"A reply"|^GET \/wp-json\/wp\/v2\/comments\?post=1 #2$/,
    difference:
      /^(value (\[\]\.)?(id|link|parent|content\.rendered|author_avatar_urls\.\d+)|ids \.|header x-wp-total)$/,
    reason:
      'follows from the refused reply to a comment of another post (see above): WordPress made that comment, so ids after it are one higher',
  },
  {
    probe: /^author GET \/wp-json\/wp\/v2\/comments\?status=hold$/,
    difference: /^header x-wp-total(pages)?$/,
    reason:
      "X-WP-Total counts the comments the caller may read; WordPress counts everyone's held ones, then leaves them out",
  },
  {
    probe: /^(admin )?GET \/wp-json\/wp\/v2\/media\?/,
    difference: /^ids \.$/,
    reason:
      'uploads made in the same second: WordPress stores whole seconds and MariaDB orders the tie; backlot keeps the instant, newest first',
  },
  {
    probe: /^admin GET \/wp-json\/wp\/v2\/media\?status=inherit,private$/,
    difference: /^value \[\]\.description\.rendered$/,
    reason: 'follows from the row above: both MP3s are listed, and players are numbered down the list',
  },
  {
    probe: /^admin DELETE \/wp-json\/wp\/v2\/users\/4$/,
    difference: /./,
    reason: 'the spec: deleting a user without force trashes them (WordPress: 501 rest_trash_not_supported)',
  },
];

/** The block editor's routes and namespace: WordPress's own editor uses them; backlot leaves them out on purpose. */
const blockEditorRoute =
  /^\/wp-block-editor\/|^\/wp\/v2\/(block-renderer|block-directory|block-patterns|pattern-directory|templates|template-parts|global-styles)\b/;

/** WordPress's index without the block editor's entries, so the rest of it is compared as it is. */
function withoutBlockEditor(answer: Answer): Answer {
  const body = answer.body as { namespaces?: string[]; routes?: Record<string, unknown> };
  if (!body || typeof body !== 'object' || !body.routes) return answer;
  const routes = Object.fromEntries(
    Object.entries(body.routes).filter(([route]) => !blockEditorRoute.test(route)),
  );
  const namespaces = body.namespaces?.filter((name) => name !== 'wp-block-editor/v1');
  return { ...answer, body: { ...body, ...(namespaces && { namespaces }), routes } };
}

const knownFile = new URL('../../../test/wordpress/known-differences.json', import.meta.url);
/**
 * Differences measured and not yet fixed (issue 19), by probe. The test fails when one disappears (remove it)
 * or a new one appears; `BACKLOT_WPDIFF_RECORD=1` rewrites the file from a run.
 */
const known: Record<string, string[]> = JSON.parse(readFileSync(knownFile, 'utf8'));
const recording = Boolean(process.env.BACKLOT_WPDIFF_RECORD);

const skip = wordPressSkip();

let wordpress: TestWordPress;
let backlot: ContentTest;
let wpAuth: Record<string, string>;

before(async () => {
  if (skip) return;
  requireWordPress();
  [wordpress, backlot] = await startAlongside(() => startContent({ listen: true }));
  wpAuth = Object.fromEntries(
    Object.entries(wordpress.appPasswords).map(([login, password]) => [login, basic(login, password)]),
  );
});

after(async () => {
  if (recording && Object.keys(measured).length > 0) record();
  await wordpress?.stop();
  await backlot?.close();
});

const measured: Record<string, Difference[]> = {};

async function both(probe: Probe): Promise<[Answer, Answer]> {
  const wp = withoutBlockEditor(await ask(wordpress.url, wpAuth, probe));
  const ours = await ask(backlot.url, backlot.auth, probe);
  return [wp, ours];
}

/** Sends each probe to both; answers what differs beyond the deliberate list and the known list. */
async function run(probes: Probe[]): Promise<string[]> {
  const failures: string[] = [];
  for (const probe of probes) {
    let name = probeName(probe);
    // The same request twice (a second DELETE) is told apart by its turn.
    for (let turn = 2; name in measured; turn++) name = `${probeName(probe)} #${turn}`;
    if (probe.waitMs) await new Promise((resolve) => setTimeout(resolve, probe.waitMs));
    const [wp, ours] = await both(probe);
    const found = compareAnswers(wp, ours).filter(
      (d) => !deliberate.some((allowed) => allowed.probe.test(name) && allowed.difference.test(d.key)),
    );
    measured[name] = found;
    const expected = new Set(known[name] ?? []);
    for (const d of found) {
      if (!expected.has(d.key)) failures.push(`${name}: new difference ${d.key} (${d.detail})`);
    }
    for (const key of expected) {
      if (!found.some((d) => d.key === key)) {
        failures.push(`${name}: "${key}" is gone, remove it from known-differences.json`);
      }
    }
  }
  return failures;
}

/** Differences seen on most requests: docs/content.md lists them once, above its request-by-request table. */
const crossCutting = [
  /^header (allow|cache-control|x-content-type-options|x-robots-tag)$/,
  /^type (\[\]\.|previous\.)?meta:/,
  /^keys (\[\]\.|previous\.)?_links/,
  /^value (\[\]\.|previous\.)?tags$/,
  /^keys (\.|previous|\[\]): -password -permalink_template -generated_slug/,
  /^keys (\[\]\.|previous\.)?content: -block_version/,
  /^keys (\[\]\.)?capabilities/,
];

/** One row of the docs' table (paths shortened, route descriptions of the index counted), or none. */
function documentedRows(name: string, found: Difference[]): string | undefined {
  let rest = found.filter((d) => !crossCutting.some((pattern) => pattern.test(d.key)));
  const inRoutes = rest.filter((d) => /^(keys|value|type) routes\./.test(d.key));
  if (inRoutes.length > 0) {
    rest = rest.filter((d) => !inRoutes.includes(d));
    rest.push({
      key: `${inRoutes.length} differences inside the route descriptions`,
      detail: 'args descriptions, defaults, enums',
    });
  }
  if (rest.length === 0) return undefined;
  const text = rest
    .map(({ key, detail }) => {
      const limit = key.startsWith('header') ? 400 : 160;
      const shown = key.startsWith('keys routes:')
        ? ''
        : detail.length > limit
          ? `${detail.slice(0, limit - 3)}...`
          : detail;
      return shown ? `${key} (${shown})` : key;
    })
    .join('; ');
  const request = name.replace(' /wp-json/wp/v2/', ' /');
  return `| \`${request}\` | ${text.replaceAll('|', '\\|')} |`;
}

function record() {
  const table = Object.fromEntries(
    Object.entries(measured)
      .filter(([, found]) => found.length > 0)
      .map(([name, found]) => [name, found.map((d) => d.key)]),
  );
  writeFileSync(knownFile, `${JSON.stringify(table, null, 2)}\n`);
  const lines = Object.entries(measured).flatMap(([name, found]) => {
    const listed = documentedRows(name, found);
    return listed ? [listed] : [];
  });
  writeFileSync(path.join(tmpdir(), 'backlot-wordpress-differences.json'), JSON.stringify(measured, null, 2));
  const file = path.join(tmpdir(), 'backlot-wordpress-differences.md');
  writeFileSync(file, `| request | WordPress → backlot |\n|---|---|\n${lines.join('\n')}\n`);
  console.log(`recorded ${Object.keys(table).length} probes with differences; table in ${file}`);
}

test('reads of the seeded site answer as WordPress 6.1 does, except the listed differences', {
  skip,
}, async () => {
  assert.match(wordpress.version, /^6\.1\./);
  // The two sites are seeded the same: the published count agrees before anything else is compared.
  const [wp, ours] = await both({ method: 'GET', path: '/wp-json/wp/v2/posts?per_page=1' });
  assert.equal(wp.headers['x-wp-total'], String(published));
  assert.equal(ours.headers['x-wp-total'], String(published));
  const failures = await run(reads);
  if (!recording) assert.deepEqual(failures, []);
});

test('writes and what they stored answer as WordPress does, except the listed differences', {
  skip,
}, async () => {
  const failures = await run(writes);
  if (!recording) assert.deepEqual(failures, []);
});

test('routes content has not built yet are still missing (move a probe out once its route exists)', {
  skip,
}, async () => {
  for (const probe of notYetBuilt) {
    if (probe.waitMs) await new Promise((resolve) => setTimeout(resolve, probe.waitMs));
    const [wp, ours] = await both(probe);
    const name = probeName(probe);
    assert.notEqual((wp.body as { code?: string }).code, 'rest_no_route', `WordPress serves ${name}`);
    assert.equal(ours.status, 404, name);
    assert.equal((ours.body as { code?: string }).code, 'rest_no_route', name);
  }
});

test('summary: how many requests differ, and in what', { skip }, (t) => {
  const all = Object.values(measured);
  const statusOrCode = all.filter((found) => found.some((d) => /^(status|code) /.test(d.key))).length;
  t.diagnostic(
    `${all.length} requests compared: ${all.filter((f) => f.length === 0).length} answer the same,`,
  );
  t.diagnostic(
    `${statusOrCode} differ in status or error code; ${notYetBuilt.length} more are on routes not built yet`,
  );
  assert.equal(all.length, reads.length + writes.length);
});

test('block editor routes: WordPress serves them, backlot leaves them out on purpose', { skip }, async () => {
  // Answered exactly as WordPress answers a route it does not have (status, body, headers).
  const [noRoute] = await both(missingRoute);
  assert.equal((noRoute.body as { code?: string }).code, 'rest_no_route');
  for (const probe of blockEditorRoutes) {
    if (probe.waitMs) await new Promise((resolve) => setTimeout(resolve, probe.waitMs));
    const [wp, ours] = await both(probe);
    const name = probeName(probe);
    // Served by WordPress (some need the internet, so not always with a 200).
    assert.notEqual((wp.body as { code?: string }).code, 'rest_no_route', `WordPress ${name}`);
    assert.deepEqual(compareAnswers(noRoute, ours), [], name);
  }
});
