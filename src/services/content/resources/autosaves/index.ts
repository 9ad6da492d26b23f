import { createHash } from 'node:crypto';
import { type TObject, Type } from '@sinclair/typebox';
import { canOnPost } from '../../capabilities.js';
import { pickItemFields } from '../../embed-param.js';
import { refused, restError } from '../../errors.js';
import { fieldList, sendFields, validId } from '../../http.js';
import { permalink } from '../../post-fields.js';
import { checkWrite, fieldsOf, type PostKind, type WriteBody } from '../../post-write.js';
import type { Context } from '../../render.js';
import { renderRevision } from '../../revisions.js';
import { itemSchema } from '../../route-spec.js';
import { ContextEnum, PostWriteBody } from '../../schemas.js';
import { PageWriteBody } from '../../schemas-posts.js';
import type { Site } from '../../site.js';
import type { ContentStore, PostRow, UserRow } from '../../store.js';
import type { RevisionRow } from '../../store-revisions.js';
import { BlockWriteBody, blockKind } from '../blocks/index.js';
import { type Check, defineResource, type Resource } from '../contract.js';
import { navigationKind, navigationRenderer } from '../navigation/index.js';
import { type AutosaveFields, AutosaveStore } from './store.js';

// WordPress's `/wp/v2/posts/{id}/autosaves` (WP_REST_Autosaves_Controller, one per post type): the editor's
// unsaved changes. The author's autosave of their own draft updates the draft itself (no revision); any other
// autosave is a revision named `<id>-autosave-v1`, one per author, overwritten by the next.

const AutosaveSchema = Type.Object({
  author: Type.Integer({ description: 'The id of the autosave’s author.' }),
  date: Type.Union([Type.String(), Type.Null()], { description: 'When the autosave was saved (site time).' }),
  date_gmt: Type.Union([Type.String(), Type.Null()], { description: 'When the autosave was saved (GMT).' }),
  id: Type.Integer({ description: 'The autosave’s id.' }),
  modified: Type.String({ description: 'When the autosave last changed (site time).' }),
  modified_gmt: Type.String({ description: 'When the autosave last changed (GMT).' }),
  parent: Type.Integer({ description: 'The id of the post it belongs to.' }),
  slug: Type.String({ description: 'Its name: `<post id>-autosave-v1`.' }),
  guid: Type.Unknown({ description: 'Its global identifier.' }),
  title: Type.Unknown({ description: 'The title saved.' }),
  content: Type.Unknown({ description: 'The content saved.' }),
  // Not for reusable blocks, which have no excerpt.
  excerpt: Type.Optional(Type.Unknown({ description: 'The excerpt saved.' })),
  preview_link: Type.Optional(
    Type.String({ description: 'The address that previews the post with these changes (edit context).' }),
  ),
  _links: Type.Optional(Type.Unknown()),
});
const ContextQuery = Type.Object({
  context: Type.Optional(ContextEnum),
  _fields: Type.Optional(Type.String()),
});
const Parent = Type.Integer({ description: 'The id of the post the autosave belongs to.' });

/** normalize_whitespace: how core decides that an autosave changes nothing. */
const normalize = (text: string) =>
  text
    .trim()
    .replaceAll('\r', '\n')
    .replace(/\n+/g, '\n')
    .replace(/[ \t]+/g, ' ');

/**
 * wp_create_nonce('post_preview_<id>')'s place: ten hex digits per post and user. WordPress checks it when its
 * front end shows a preview; backlot has no front end, so nothing checks it.
 */
const previewNonce = (parent: number, me: UserRow) =>
  createHash('sha256').update(`post_preview_${parent}:${me.id}`).digest('hex').slice(0, 10);

/** get_preview_post_link: the post's link with `preview=true`, and for an autosave revision its parent and nonce. */
function previewLink(post: PostRow, autosave: boolean, me: UserRow, site: Site) {
  // get_preview_post_link has none for a type that is not viewable (reusable blocks).
  if (post.type === 'wp_block' || post.type === 'wp_navigation') return '';
  const link = permalink(post, site);
  const args = autosave ? `preview_id=${post.id}&preview_nonce=${previewNonce(post.id, me)}&` : '';
  return `${link}${link.includes('?') ? '&' : '?'}${args}preview=true`;
}

/** A post row in the revision's shape (a draft autosaved in place is answered as itself). */
const asRevision = (post: PostRow): RevisionRow => ({
  id: post.id,
  author: post.author,
  parent: post.parent,
  title: post.title,
  content: post.content,
  excerpt: post.excerpt,
  slug: post.slug,
  date: post.date,
  modified: post.modified,
});

const writeBodies = {
  post: PostWriteBody,
  page: PageWriteBody,
  wp_block: BlockWriteBody,
  wp_navigation: BlockWriteBody,
};

/** One autosave resource per post type (posts, pages, reusable blocks). */
export function autosavesResource(kind: PostKind): Resource {
  const base = `/wp/v2/${kind.rest}`;
  // A store holds no state but its database: one per call is free.
  const autosavesOf = (store: ContentStore) => new AutosaveStore(store.db);

  const postOf = async (store: ContentStore, id: string) => {
    const post = validId(Number(id)) ? await store.findPost(Number(id)) : undefined;
    return post?.type === kind.type ? post : undefined;
  };

  /** The revisions controller's parent check: the post must exist and the caller may edit it. */
  const checkParent =
    (key: 'id' | 'parent', what: 'autosaves' | 'revisions') =>
    async ({ store, me, params }: Check) => {
      const post = await postOf(store, params[key] ?? '');
      if (!post) throw restError(404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
      if (!canOnPost(me, 'edit', post))
        throw refused(!!me, 'rest_cannot_read', `Sorry, you are not allowed to view ${what} of this post.`);
    };

  /** create_item_permissions_check is the post's update check. */
  const checkEditor = async ({ store, me, params }: Check) => {
    const post = await postOf(store, params.id ?? '');
    if (!post) throw restError(404, 'rest_post_invalid_id', 'Invalid post ID.');
    if (!me || !canOnPost(me, 'edit', post))
      throw refused(!!me, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
  };

  const render = async (
    store: ContentStore,
    rev: RevisionRow,
    post: PostRow,
    me: UserRow,
    site: Site,
    context: Context,
  ) => {
    const inPlace = rev.id === post.id;
    // Navigation menus' content renders their links (see navigation/).
    const theContent =
      kind.type === 'wp_navigation' ? await navigationRenderer(store, [rev.content]) : undefined;
    const body = renderRevision(rev, site, kind.rest, context, theContent);
    const { _links, ...data } = body as typeof body & { _links?: unknown };
    return {
      ...data,
      // The schema gives preview_link the edit context only.
      ...(context === 'edit' ? { preview_link: previewLink(post, !inPlace, me, site) } : {}),
      ...(_links ? { _links } : {}),
    };
  };

  return defineResource({
    name: `${kind.rest}-autosaves`,
    openapiTag: kind.rest,
    schema: itemSchema(`${kind.type}-revision`, AutosaveSchema),
    routes: [
      {
        path: `${base}/(?P<id>[\\d]+)/autosaves`,
        params: Type.Object({ id: Parent }),
        endpoints: [
          {
            methods: ['GET'],
            summary: `The autosaves of one of the ${kind.rest}, newest first (whoever may edit it)`,
            querystring: ContextQuery,
            response: Type.Array(AutosaveSchema),
            check: checkParent('id', 'autosaves'),
            async handle({ store, me, params, query, site, reply, request }) {
              const post = (await postOf(store, params.id ?? '')) as PostRow;
              const context = (query.context ?? 'view') as Context;
              const fields = fieldList(query._fields as string | undefined);
              sendFields(reply, fields);
              const rows = await autosavesOf(store).list(post.id);
              return Promise.all(
                rows.map(async (rev) =>
                  pickItemFields(
                    request,
                    await render(store, rev, post, me as UserRow, site, context),
                    fields,
                    true,
                  ),
                ),
              );
            },
          },
          {
            methods: ['POST'],
            summary: `Autosave one of the ${kind.rest}: its author's draft changes in place, else an autosave`,
            body: writeBodies[kind.type] as TObject,
            response: AutosaveSchema,
            check: checkEditor,
            async handle({ store, me, params, body, site }) {
              const user = me as UserRow;
              const post = (await postOf(store, params.id ?? '')) as PostRow;
              const write = body as WriteBody;
              await checkWrite(store, kind, user, write);
              const fields = fieldsOf(write, post);
              if (post.status === 'draft' && post.author === user.id) {
                // wp_update_post while DOING_AUTOSAVE: no revision. (Backlot's drafts keep their date: it does not
                // float until publication as WordPress's undated drafts do; docs/content.md.)
                const saved = await store.savePost(fields, post.id);
                return render(store, asRevision(saved), saved, user, site, 'edit');
              }
              const autosave = await saveAutosave(autosavesOf(store), post, user, fields);
              return render(store, autosave, post, user, site, 'edit');
            },
          },
        ],
      },
      {
        path: `${base}/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)`,
        params: Type.Object({
          parent: Parent,
          id: Type.Integer({ description: 'The id of the autosave.' }),
        }),
        endpoints: [
          {
            methods: ['GET'],
            summary: `The latest autosave of one of the ${kind.rest} (as WordPress 6.1, whatever the id says)`,
            querystring: ContextQuery,
            response: AutosaveSchema,
            check: checkParent('parent', 'revisions'),
            async handle({ store, me, params, query, site, reply, request }) {
              const post = (await postOf(store, params.parent ?? '')) as PostRow;
              // Core's get_item reads wp_get_post_autosave(parent): anyone's newest; the id is not looked at.
              const autosave = await autosavesOf(store).latest(post.id);
              if (!autosave)
                throw restError(404, 'rest_post_no_autosave', 'There is no autosave revision for this post.');
              const fields = fieldList(query._fields as string | undefined);
              sendFields(reply, fields);
              const context = (query.context ?? 'view') as Context;
              return pickItemFields(
                request,
                await render(store, autosave, post, me as UserRow, site, context),
                fields,
              );
            },
          },
        ],
      },
    ],
  });
}

/**
 * create_post_autosave: the caller's autosave is overwritten with what was sent (and dropped, with a 400, when
 * that equals the post); without one, a new autosave holds what was sent.
 */
async function saveAutosave(
  autosaves: AutosaveStore,
  post: PostRow,
  me: UserRow,
  fields: ReturnType<typeof fieldsOf>,
): Promise<RevisionRow> {
  const sent: AutosaveFields = {};
  for (const key of ['title', 'content', 'excerpt'] as const)
    if (fields[key] !== undefined) sent[key] = fields[key];
  const old = await autosaves.latest(post.id, me.id);
  if (!old) {
    const created = await autosaves.create(post.id, me.id, sent);
    // The post was deleted since it was read.
    if (!created) throw restError(404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
    return created;
  }
  const differs = (Object.keys(sent) as (keyof AutosaveFields)[]).some(
    (key) => normalize(sent[key] ?? '') !== normalize(post[key]),
  );
  if (!differs) {
    await autosaves.delete(old);
    throw restError(
      400,
      'rest_autosave_no_changes',
      'There is nothing to save. The autosave and the post content are the same.',
    );
  }
  return autosaves.update(old, sent);
}

export const postAutosaves = autosavesResource({ type: 'post', rest: 'posts', caps: 'posts' });
export const pageAutosaves = autosavesResource({ type: 'page', rest: 'pages', caps: 'pages' });
export const blockAutosaves = autosavesResource(blockKind);
export const navigationAutosaves = autosavesResource(navigationKind);
