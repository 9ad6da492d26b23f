import { Type } from '@sinclair/typebox';
import { can } from '../../capabilities.js';
import { refused, restError } from '../../errors.js';
import { fieldList, sendFields } from '../../http.js';
import { displayedTitle, permalink } from '../../post-fields.js';
import { pickFields } from '../../render.js';
import { texturize } from '../../render-text.js';
import type { Site } from '../../site.js';
import type { ContentStore, PostRow } from '../../store.js';
import { type Call, defineResource } from '../contract.js';

// WordPress 6.1's oEmbed provider (WP_oEmbed_Controller): `/oembed/1.0/embed?url=` describes one of the site's
// own published posts or pages (url_to_postid, then get_oembed_response_data with the `rich` type's html), and
// `/oembed/1.0/proxy` (who may edit posts) answers the same for the site's own URLs. Other sites' URLs would need
// the internet: they fail as an offline WordPress's do (404 oembed_invalid_url).

const EmbedQuery = Type.Object({
  url: Type.String({ description: 'The address of the post or page to embed.' }),
  format: Type.Optional(Type.String({ description: 'json (default) or xml.' })),
  maxwidth: Type.Optional(
    Type.String({ description: 'The widest the embed may be, in pixels (200 to 600).' }),
  ),
  _fields: Type.Optional(Type.String()),
});
const ProxyQuery = Type.Object({
  url: Type.String({ description: 'The address to embed.' }),
  format: Type.Optional(Type.String({ description: 'json (default) or xml.' })),
  maxwidth: Type.Optional(Type.String({ description: 'The widest the embed may be, in pixels.' })),
  maxheight: Type.Optional(Type.String({ description: 'The tallest the embed may be, in pixels.' })),
  discover: Type.Optional(
    Type.String({ description: 'Whether to look for an oEmbed provider in the page.' }),
  ),
  _fields: Type.Optional(Type.String()),
});

const notFound = () => restError(404, 'oembed_invalid_url', 'Not Found');

/** url_to_postid for this site's posts and pages: `?p=`, `?page_id=`, or a pretty permalink. */
async function postOfUrl(store: ContentStore, site: Site, url: string): Promise<PostRow | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url, site.url);
  } catch {
    return undefined;
  }
  const home = new URL(site.url);
  if (parsed.host.replace(/^www\./, '') !== home.host.replace(/^www\./, '')) return undefined;
  const byId = parsed.searchParams.get('p') ?? parsed.searchParams.get('page_id');
  if (byId !== null) {
    const id = Number(byId);
    return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? store.findPost(id) : undefined;
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  let slug: string;
  try {
    slug = decodeURIComponent(path.split('/').at(-1) ?? '').toLowerCase();
  } catch {
    return undefined; // a malformed escape names no post
  }
  // A NUL names no post either, and the database refuses it in text.
  if (!slug || slug.includes('\0')) return undefined;
  const { rows } = await store.db.query<{ id: number }>(
    `SELECT id FROM content.posts WHERE slug = $1 AND type IN ('post', 'page') ORDER BY id`,
    [slug],
  );
  for (const { id } of rows) {
    const post = await store.findPost(id);
    if (post && new URL(permalink(post, site)).pathname.replace(/\/+$/, '') === path) return post;
  }
  return undefined;
}

/** esc_attr/esc_url: markup characters escaped, an entity already written (`&#8220;`) left as it is. */
const escAttr = (text: string) =>
  text.replace(
    /&(?!#?\w+;)|[<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c] ?? c,
  );

/** get_oembed_response_data with the rich type's html (without core's inline wp-embed script; see docs). */
async function responseData(call: Call, post: PostRow, maxwidth: unknown) {
  const { store, site } = call;
  const width = Math.min(Math.max(200, Math.abs(Number.parseInt(String(maxwidth ?? 600), 10) || 0)), 600);
  const height = Math.max(Math.ceil((width / 16) * 9), 200);
  const siteName = await call.rest.siteName(site);
  const author = await store.findUser(post.author);
  const title = texturize(displayedTitle(post));
  const link = permalink(post, site);
  const secret = Math.random().toString(36).slice(2, 12).padEnd(10, '0');
  const html =
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escAttr(link)}">${title}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${escAttr(`${link}embed/#?secret=${secret}`)}" width="${width}" height="${height}" title="${escAttr(`&#8220;${title}&#8221; &#8212; ${siteName}`)}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`;
  return {
    version: '1.0',
    provider_name: siteName,
    provider_url: site.url,
    author_name: author ? author.display_name : siteName,
    author_url: author ? `${site.url}/author/${author.slug}/` : site.url,
    title,
    type: 'rich',
    width,
    height,
    html,
  };
}

const xmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** _oembed_create_xml: the answer as `<oembed>` XML, as WordPress answers `format=xml` on /embed. */
function asXml(data: Record<string, unknown>): string {
  const body = Object.entries(data)
    .map(([key, value]) => `<${key}>${String(value).replace(/[&<>]/g, (c) => xmlEntities[c] ?? c)}</${key}>`)
    .join('');
  return `<?xml version="1.0"?>\n<oembed>${body}</oembed>\n`;
}

async function embed(call: Call, xml: boolean) {
  const post = await postOfUrl(call.store, call.site, String(call.query.url));
  // get_oembed_response_data: published posts and pages only.
  if (post?.status !== 'publish') throw notFound();
  const data = await responseData(call, post, call.query.maxwidth);
  if (!xml) {
    const fields = fieldList(call.query._fields as string | undefined);
    sendFields(call.reply, fields);
    return fields ? pickFields(data, fields) : data;
  }
  call.reply.type('text/xml; charset=UTF-8').serializer((payload) => String(payload));
  return asXml(data);
}

export const oembedResource = defineResource({
  name: 'oembed',
  routes: [
    {
      path: '/oembed/1.0/embed',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The oEmbed description of one of this site’s posts or pages (json, or xml)',
          querystring: EmbedQuery,
          response: Type.Unknown(),
          check: () => undefined,
          handle: (call) => embed(call, call.query.format === 'xml'),
        },
      ],
    },
    {
      path: '/oembed/1.0/proxy',
      endpoints: [
        {
          methods: ['GET'],
          summary:
            'oEmbed for an address (who may edit posts): this site’s own; others need the internet (404)',
          querystring: ProxyQuery,
          response: Type.Unknown(),
          check({ me }) {
            if (!can(me, 'edit_posts'))
              throw refused(
                !!me,
                'rest_forbidden',
                'Sorry, you are not allowed to make proxied oEmbed requests.',
              );
          },
          handle: (call) => embed(call, false),
        },
      ],
    },
  ],
});
