import type { FastifyRequest } from 'fastify';
import { canRead } from './capabilities.js';
import { renderComment } from './comment-render.js';
import { caller, siteOf } from './http.js';
import { renderMedia } from './media-render.js';
import { renderPost, renderTerm, renderUser } from './render.js';
import type { ContentStore, PostRow, TermRow } from './store.js';
import { type CommentRow, CommentStore } from './store-comments.js';

export interface Embedded {
  of(post: PostRow): Record<string, unknown>;
}

/** `_embed`: authors, terms, featured media and parent pages of a page of posts, loaded once for all of them. */
export async function embedFor(
  store: ContentStore,
  posts: PostRow[],
  request: FastifyRequest,
): Promise<Embedded> {
  const site = siteOf(request);
  const user = caller(request);
  const users = new Map(
    (await store.findUsers([...new Set(posts.map((p) => p.author))])).map((u) => [u.id, u]),
  );
  const termIds = [...new Set(posts.flatMap((p) => [...p.categories, ...p.tags]))];
  const terms = new Map<number, TermRow>();
  for (const taxonomy of ['category', 'post_tag'] as const) {
    if (termIds.length === 0) break;
    const { rows } = await store.listTerms({
      taxonomy,
      include: termIds,
      hideEmpty: false,
      orderby: 'id',
      order: 'asc',
      offset: 0,
    });
    for (const term of rows) terms.set(term.id, term);
  }
  const related = new Map<number, PostRow>();
  for (const id of new Set(posts.flatMap((p) => [p.featured_media, p.type === 'page' ? p.parent : 0]))) {
    if (!id) continue;
    const found = await store.findPost(id);
    if (found) related.set(id, found);
  }
  // The `replies` link: approved comments, as `/comments?post=<id>` shows them to the public.
  const comments = new CommentStore(store.db);
  const replies = new Map<number, CommentRow[]>();
  if (posts.length) {
    const { rows } = await comments.list({
      statuses: ['approved'],
      posts: posts.map((p) => p.id),
      visibleTo: 'anonymous',
      orderby: 'date',
      order: 'desc',
      limit: 100 * posts.length,
      offset: 0,
    });
    for (const row of rows) replies.set(row.post, [...(replies.get(row.post) ?? []), row]);
  }
  const termsOf = (ids: number[]) =>
    ids.flatMap((id) => {
      const term = terms.get(id);
      return term ? [renderTerm(term, site)] : [];
    });
  return {
    of(post) {
      const author = users.get(post.author);
      const out: Record<string, unknown> = { author: author ? [renderUser(author, site, 'embed')] : [] };
      const media = related.get(post.featured_media);
      if (post.featured_media)
        out['wp:featuredmedia'] = [
          media?.type === 'attachment'
            ? renderMedia(media, site, 'embed')
            : { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } },
        ];
      const parent = post.type === 'page' ? related.get(post.parent) : undefined;
      if (parent && canRead(user, parent)) out.up = [renderPost(parent, site, 'embed')];
      const postReplies = replies.get(post.id);
      if (postReplies) out.replies = [postReplies.slice(0, 10).map((c) => renderComment(c, site, 'embed'))];
      if (post.type === 'post') out['wp:term'] = [termsOf(post.categories), termsOf(post.tags)];
      return out;
    },
  };
}

/**
 * `_embed=author,wp:term` embeds only the named links (rest_parse_embed_param); a bare `_embed`, `true` or `1`
 * embeds them all. Nothing left to embed: no `_embedded` at all, as core.
 */
export function embedOnly(param: unknown, embedded: Record<string, unknown>) {
  const rels = (Array.isArray(param) ? param : String(param ?? '').split(','))
    .map((rel) => String(rel).trim())
    .filter(Boolean);
  if (rels.length === 0 || (rels.length === 1 && (rels[0] === 'true' || rels[0] === '1'))) return embedded;
  const picked = Object.fromEntries(Object.entries(embedded).filter(([rel]) => rels.includes(rel)));
  return Object.keys(picked).length ? picked : undefined;
}
