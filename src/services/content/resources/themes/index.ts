import { Type } from '@sinclair/typebox';
import { can } from '../../capabilities.js';
import { refused, restError } from '../../errors.js';
import { fieldList, sendFields } from '../../http.js';
import { pickFields } from '../../render.js';
import { itemSchema } from '../../route-spec.js';
import { StringEnum } from '../../schemas.js';
import type { Site } from '../../site.js';
import { type Check, defineResource } from '../contract.js';
import { activeTheme } from './twentytwentythree.js';

// WordPress 6.1's `/wp/v2/themes` (WP_REST_Themes_Controller), read-only: the one installed theme, which is the
// active one (Twenty Twenty-Three, as the test WordPress). Administrators (`switch_themes`) read every theme;
// whoever may edit posts of any type reads the active one (`?status=active`, or its stylesheet).

const Text = (description: string) =>
  Type.Object({ raw: Type.String(), rendered: Type.String() }, { description });
const ThemeSchema = Type.Object({
  stylesheet: Type.String({ description: 'The theme’s directory name, which identifies it.' }),
  template: Type.String({ description: 'The directory name of the theme it builds on (itself when none).' }),
  author: Text('Who made the theme.'),
  author_uri: Text('The web page of who made the theme.'),
  description: Text('What the theme is, in words.'),
  name: Text('The theme’s name.'),
  requires_php: Type.String({ description: 'The lowest PHP version the theme runs on.' }),
  requires_wp: Type.String({ description: 'The lowest WordPress version the theme runs on.' }),
  screenshot: Type.String({ description: 'The address of the theme’s screenshot.' }),
  tags: Type.Object(
    { raw: Type.Array(Type.String()), rendered: Type.String() },
    { description: 'The theme’s directory tags.' },
  ),
  textdomain: Type.String({ description: 'The text domain of the theme’s translations.' }),
  theme_supports: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The features the theme declares (add_theme_support).',
  }),
  theme_uri: Text('The theme’s web page.'),
  version: Type.String({ description: 'The theme’s version.' }),
  status: StringEnum(['inactive', 'active'] as const, {
    description: 'Whether the theme is the active one.',
  }),
});

const ListQuery = Type.Object({
  status: Type.Optional(
    Type.Array(StringEnum(['active', 'inactive'] as const), {
      description: 'Only themes with one of these statuses.',
    }),
  ),
  _fields: Type.Optional(Type.String()),
});
const ItemParams = Type.Object({
  stylesheet: Type.String({ description: 'The theme’s directory name (its stylesheet).' }),
});

const canSwitch = (me: Check['me']) => can(me, 'switch_themes');

/** check_read_active_theme_permission: who may edit posts of any type shown in the API. */
function checkReadActive({ me }: Check) {
  if (can(me, 'edit_posts') || can(me, 'edit_pages') || can(me, 'edit_theme_options')) return;
  throw refused(
    !!me,
    'rest_cannot_view_active_theme',
    'Sorry, you are not allowed to view the active theme.',
  );
}

const cannotViewThemes = (me: Check['me']) =>
  refused(!!me, 'rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.');

function render(site: Site) {
  const { version, ...rest } = activeTheme;
  const [before, after] = [
    Object.fromEntries(Object.entries(rest).slice(0, 5)),
    Object.fromEntries(Object.entries(rest).slice(5)),
  ];
  return {
    ...before,
    version,
    screenshot: `${site.url}/wp-content/themes/${activeTheme.stylesheet}/screenshot.png`,
    ...after,
    status: 'active',
    _links: {
      self: [{ href: `${site.api}/wp/v2/themes/${activeTheme.stylesheet}` }],
      collection: [{ href: `${site.api}/wp/v2/themes` }],
    },
  };
}

export const themesResource = defineResource({
  name: 'themes',
  schema: itemSchema('theme', ThemeSchema),
  routes: [
    {
      path: '/wp/v2/themes',
      endpoints: [
        {
          methods: ['GET'],
          summary:
            'The installed themes: the active one (administrators; `?status=active`: contributors and up)',
          querystring: ListQuery,
          response: Type.Unknown(),
          check(call) {
            if (canSwitch(call.me)) return;
            const status = call.query.status;
            if (Array.isArray(status) && status.length === 1 && status[0] === 'active')
              return checkReadActive(call);
            throw cannotViewThemes(call.me);
          },
          async handle({ query, reply, site }) {
            const status = query.status as string[] | undefined;
            const themes = !status || status.includes('active') ? [render(site)] : [];
            reply.header('x-wp-total', String(themes.length)).header('x-wp-totalpages', '1');
            const fields = fieldList(query._fields as string | undefined);
            sendFields(reply, fields);
            return fields ? themes.map((t) => pickFields(t, fields)) : themes;
          },
        },
      ],
    },
    {
      path: '/wp/v2/themes/(?P<stylesheet>[^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)',
      params: ItemParams,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'One theme by its stylesheet (the active one: contributors and up)',
          querystring: Type.Object({ _fields: Type.Optional(Type.String()) }),
          response: Type.Unknown(),
          check(call) {
            if (canSwitch(call.me)) return;
            if (call.params.stylesheet === activeTheme.stylesheet) return checkReadActive(call);
            throw cannotViewThemes(call.me);
          },
          async handle({ params, query, reply, site }) {
            if (params.stylesheet !== activeTheme.stylesheet)
              throw restError(404, 'rest_theme_not_found', 'Theme not found.');
            const fields = fieldList(query._fields as string | undefined);
            sendFields(reply, fields);
            return fields ? pickFields(render(site), fields) : render(site);
          },
        },
      ],
    },
  ],
});
