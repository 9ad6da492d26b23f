import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Database } from '../../platform/database.js';
import { can } from './capabilities.js';
import { phpList, refused, restError } from './errors.js';
import { caller, siteOf } from './http.js';
import { languages } from './languages.js';
import { responses } from './schemas.js';
import type { ContentSettings } from './settings.js';

type Kind = 'string' | 'integer' | 'boolean';
interface SettingSpec {
  type: Kind;
  description: string;
  enum?: string[];
  format?: 'email' | 'uri';
}

/** The settings core registers with `show_in_rest` (WordPress 6.1), in its order. */
export const settingSpecs: Record<string, SettingSpec> = {
  title: { type: 'string', description: 'The site’s name.' },
  description: { type: 'string', description: 'A short line that says what the site is about.' },
  url: { type: 'string', description: 'The site’s address.', format: 'uri' },
  email: {
    type: 'string',
    description: 'Where the site’s administrative e-mail goes.',
    format: 'email',
  },
  timezone: {
    type: 'string',
    description: 'The site’s time zone (a tz database name such as Europe/Paris).',
  },
  date_format: { type: 'string', description: 'How dates are written (PHP date format).' },
  time_format: { type: 'string', description: 'How times are written (PHP date format).' },
  start_of_week: { type: 'integer', description: 'The first day of the week (0 is Sunday).' },
  language: { type: 'string', description: 'The site’s language (a locale such as en_US).' },
  use_smilies: { type: 'boolean', description: 'Whether text smileys are shown as images.' },
  default_category: { type: 'integer', description: 'The category new posts get when none is given.' },
  default_post_format: { type: 'string', description: 'The format new posts get when none is given.' },
  posts_per_page: { type: 'integer', description: 'How many posts a page of the blog shows.' },
  show_on_front: {
    type: 'string',
    description: 'The front page shows the latest posts or a page.',
    enum: ['posts', 'page'],
  },
  page_on_front: {
    type: 'integer',
    description: 'The id of the page shown as the front page.',
  },
  page_for_posts: { type: 'integer', description: 'The id of the page that lists the latest posts.' },
  default_ping_status: {
    type: 'string',
    description: 'Whether new posts take pingbacks and trackbacks.',
    enum: ['open', 'closed'],
  },
  default_comment_status: {
    type: 'string',
    description: 'Whether new posts take comments.',
    enum: ['open', 'closed'],
  },
  site_logo: { type: 'integer', description: 'The id of the logo image.' },
  site_icon: { type: 'integer', description: 'The id of the site icon image.' },
};

function defaults(settings: ContentSettings, site: string): Record<string, unknown> {
  return {
    title: settings.siteName,
    description: settings.siteDescription,
    url: site,
    email: 'admin@example.com',
    timezone: 'UTC',
    date_format: 'F j, Y',
    time_format: 'g:i a',
    start_of_week: 1,
    language: 'en_US',
    use_smilies: true,
    default_category: 1,
    default_post_format: '0',
    posts_per_page: 10,
    show_on_front: 'posts',
    page_on_front: 0,
    page_for_posts: 0,
    default_ping_status: 'open',
    default_comment_status: 'open',
    // get_option() gives false for an unset logo, which the integer schema turns into null.
    site_logo: null,
    site_icon: 0,
  };
}

/** Every setting: stored values over the defaults. */
export async function siteOptions(db: Database, settings: ContentSettings, site: string) {
  const { rows } = await db.query<{ name: string; value: unknown }>(
    'SELECT name, value FROM content.options',
  );
  const values = defaults(settings, site);
  for (const row of rows) if (row.name in settingSpecs) values[row.name] = row.value;
  return values;
}

const invalid = (name: string, message: string, code: string) => {
  const error = restError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, { [name]: message });
  (error.body as { data: Record<string, unknown> }).data.details = {
    [name]: { code, message, data: { param: name } },
  };
  return error;
};

/** Core's type checks on a setting (form bodies send text, so "10" and "true" count as their types). */
function coerce(name: string, spec: SettingSpec, value: unknown): unknown {
  if (value === null) return null;
  if (spec.type === 'integer') {
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
    throw invalid(name, `${name} is not of type integer.`, 'rest_invalid_type');
  }
  if (spec.type === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (['true', '1'].includes(String(value))) return true;
    if (['false', '0', ''].includes(String(value))) return false;
    throw invalid(name, `${name} is not of type boolean.`, 'rest_invalid_type');
  }
  if (typeof value !== 'string' && typeof value !== 'number')
    throw invalid(name, `${name} is not of type string.`, 'rest_invalid_type');
  const text = String(value);
  if (spec.enum && !spec.enum.includes(text))
    throw invalid(name, `${name} is not one of ${phpList(spec.enum.map(String))}.`, 'rest_not_in_enum');
  if (spec.format === 'email' && !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(text))
    throw invalid(name, 'Invalid email address.', 'rest_invalid_email');
  if (spec.format === 'uri' && !/^https?:\/\/\S+$/i.test(text))
    throw invalid(name, 'Invalid URL.', 'rest_invalid_uri');
  if (name === 'language' && text !== 'en_US' && !Object.values(languages).includes(text))
    throw invalid(
      name,
      `language is not one of en_US, ${Object.values(languages).join(', ')}.`,
      'rest_not_in_enum',
    );
  return text;
}

/** `GET/POST /wp/v2/settings`: the site's settings, for administrators (`manage_options`). */
export function optionRoutes(db: Database, settings: ContentSettings): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const url = '/wp-json/wp/v2/settings';
    const allowed = (request: FastifyRequest) => {
      const me = caller(request);
      if (!can(me, 'manage_options'))
        throw refused(!!me, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    };
    const schema = {
      tags: ['site'],
      response: responses(Type.Object({}, { additionalProperties: true })),
    };

    app.get(
      url,
      { schema: { ...schema, summary: 'The site’s settings (administrators)' } },
      async (request) => {
        allowed(request);
        return siteOptions(db, settings, siteOf(request).url);
      },
    );

    for (const method of ['POST', 'PUT', 'PATCH'] as const)
      app.route({
        method,
        url,
        schema: {
          ...schema,
          summary: 'Change settings; null resets one to its default',
          body: Type.Object({}, { additionalProperties: true }),
        },
        handler: async (request) => {
          const body = (request.body ?? {}) as Record<string, unknown>;
          // Parameters are checked before permissions, as core does.
          const changes = Object.entries(body)
            .filter(([name]) => Object.hasOwn(settingSpecs, name))
            .map(([name, value]) => [name, coerce(name, settingSpecs[name] as SettingSpec, value)] as const);
          allowed(request);
          await db.transaction(async (tx) => {
            for (const [name, value] of changes) {
              if (value === null) await tx.query('DELETE FROM content.options WHERE name = $1', [name]);
              else
                await tx.query(
                  `INSERT INTO content.options (name, value) VALUES ($1, $2::jsonb)
                   ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
                  [name, JSON.stringify(value)],
                );
            }
          });
          return siteOptions(db, settings, siteOf(request).url);
        },
      });
  };
}
