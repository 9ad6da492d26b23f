import { Type } from '@sinclair/typebox';
import { HttpError } from '../../../../platform/errors.js';
import { can } from '../../capabilities.js';
import { refused, restError } from '../../errors.js';
import { itemSchema } from '../../route-spec.js';
import { StringEnum } from '../../schemas.js';
import { type Check, defineResource } from '../contract.js';

// WordPress 6.1's `/wp/v2/plugins` (WP_REST_Plugins_Controller) on a site with no plugins installed, as the test
// WordPress (its plugin directory is empty): administrators list `[]`, any plugin is `404 rest_plugin_not_found`
// (read, activate/deactivate, delete), and installing one needs WordPress.org, so it fails as an offline
// WordPress's does (500 `plugins_api_failed`). Others are refused with core's codes.

const Status = (description: string) => StringEnum(['inactive', 'active'] as const, { description });
const Text = (description: string) =>
  Type.Object({ raw: Type.String(), rendered: Type.String() }, { description });
const PluginSchema = Type.Object({
  plugin: Type.String({ description: 'The plugin file, `directory/file` without `.php`.' }),
  status: Status('Whether the plugin is active.'),
  name: Type.String({ description: 'The plugin’s name.' }),
  plugin_uri: Type.String({ description: 'The plugin’s web page.' }),
  author: Type.String({ description: 'Who made the plugin.' }),
  author_uri: Type.String({ description: 'The web page of who made the plugin.' }),
  description: Text('What the plugin does, in words.'),
  version: Type.String({ description: 'The plugin’s version.' }),
  network_only: Type.Boolean({ description: 'Whether it can only be activated for a whole network.' }),
  requires_wp: Type.String({ description: 'The lowest WordPress version the plugin runs on.' }),
  requires_php: Type.String({ description: 'The lowest PHP version the plugin runs on.' }),
  textdomain: Type.String({ description: 'The text domain of the plugin’s translations.' }),
});

const Context = Type.Optional(
  StringEnum(['view', 'embed', 'edit'] as const, { description: 'Which fields come back.' }),
);
const ListQuery = Type.Object({
  context: Context,
  search: Type.Optional(Type.String({ description: 'Only plugins whose text matches this.' })),
  status: Type.Optional(
    Type.Array(StringEnum(['inactive', 'active'] as const), {
      description: 'Only plugins with one of these statuses.',
    }),
  ),
});
const InstallBody = Type.Object({
  slug: Type.String({
    pattern: '[\\w\\-]+',
    description: 'The plugin’s slug in the WordPress.org directory.',
  }),
  status: Type.Optional(Status('Activate it once installed (active) or not.')),
});
const UpdateBody = Type.Object({
  context: Context,
  status: Type.Optional(Status('Activate or deactivate it.')),
});
const pluginArgs = {
  plugin: {
    description: 'The plugin file, `directory/file` without `.php`.',
    type: 'string',
    required: false,
  },
  context: {
    description: 'Which fields come back.',
    type: 'string',
    enum: ['view', 'embed', 'edit'],
    default: 'view',
    required: false,
  },
};

/** The installed plugins: none. */
const installed: readonly string[] = [];

/** check_read_permission: a plugin that is not installed is 404, before anything else is said of it. */
function requireInstalled({ params }: Check) {
  if (!installed.includes(params.plugin ?? ''))
    throw restError(404, 'rest_plugin_not_found', 'Plugin not found.');
}

const manage = 'Sorry, you are not allowed to manage plugins for this site.';

/** plugins_api() without a connection: WordPress.org cannot be asked, as WP_HTTP_BLOCK_EXTERNAL answers. */
const offline = () =>
  new HttpError(500, {
    code: 'plugins_api_failed',
    message:
      'An unexpected error occurred. Something may be wrong with WordPress.org or this server&#8217;s configuration. If you continue to have problems, please try the <a href="https://wordpress.org/support/forums/">support forums</a>.',
    data: { status: 500 },
    additional_data: ['User has blocked requests through HTTP.'],
  });

export const pluginsResource = defineResource({
  name: 'plugins',
  schema: itemSchema('plugin', PluginSchema),
  routes: [
    {
      path: '/wp/v2/plugins',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The installed plugins (administrators): none here, `[]`',
          querystring: ListQuery,
          response: Type.Unknown(),
          check({ me }) {
            if (!can(me, 'activate_plugins')) throw refused(!!me, 'rest_cannot_view_plugins', manage);
          },
          async handle() {
            return [];
          },
        },
        {
          methods: ['POST'],
          summary:
            'Install a plugin from WordPress.org: offline, so 500 plugins_api_failed as WordPress answers',
          body: InstallBody,
          response: Type.Unknown(),
          check({ me }) {
            if (!can(me, 'install_plugins'))
              throw refused(
                !!me,
                'rest_cannot_install_plugin',
                'Sorry, you are not allowed to install plugins on this site.',
              );
          },
          async handle({ body, me }) {
            if (body.status === 'active' && !can(me, 'activate_plugins'))
              throw refused(
                !!me,
                'rest_cannot_activate_plugin',
                'Sorry, you are not allowed to activate this plugin.',
              );
            throw offline();
          },
        },
      ],
    },
    {
      path: '/wp/v2/plugins/(?P<plugin>[^.\\/]+(?:\\/[^.\\/]+)?)',
      wildcard: 'plugin',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'One installed plugin (administrators)',
          querystring: Type.Object({ context: Context }),
          args: pluginArgs,
          response: Type.Unknown(),
          check(call) {
            if (!can(call.me, 'activate_plugins'))
              throw refused(!!call.me, 'rest_cannot_view_plugin', manage);
            requireInstalled(call);
          },
          async handle() {
            throw restError(404, 'rest_plugin_not_found', 'Plugin not found.');
          },
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Activate or deactivate an installed plugin (administrators)',
          body: UpdateBody,
          args: {
            ...pluginArgs,
            status: {
              description: 'Activate or deactivate it.',
              type: 'string',
              enum: ['inactive', 'active'],
              required: false,
            },
          },
          response: Type.Unknown(),
          check(call) {
            if (!can(call.me, 'activate_plugins'))
              throw refused(!!call.me, 'rest_cannot_manage_plugins', manage);
            requireInstalled(call);
          },
          async handle() {
            throw restError(404, 'rest_plugin_not_found', 'Plugin not found.');
          },
        },
        {
          methods: ['DELETE'],
          summary: 'Delete an installed plugin (administrators)',
          querystring: Type.Object({ context: Context }),
          args: pluginArgs,
          response: Type.Unknown(),
          check(call) {
            if (!can(call.me, 'delete_plugins'))
              throw refused(!!call.me, 'rest_cannot_manage_plugins', manage);
            requireInstalled(call);
          },
          async handle() {
            throw restError(404, 'rest_plugin_not_found', 'Plugin not found.');
          },
        },
      ],
    },
  ],
});
