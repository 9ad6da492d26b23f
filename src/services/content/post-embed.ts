import type { FastifyRequest } from 'fastify';
import { can, canRead } from './capabilities.js';
import { type EmbedRels, embeddableRels, wants } from './embed-param.js';
import { caller, siteOf } from './http.js';
import { renderMedia } from './media-render.js';
import { attachmentLink } from './post-fields.js';
import { renderPost, renderTerm, renderUser } from './render.js';
import { renderComment } from './resources/comments/render.js';
import { type CommentRow, CommentStore } from './resources/comments/store.js';
import type { ContentStore, PostRow, TermRow, UserRow } from './store.js';

export interface Embedded {
  rels: EmbedRels;
  /** `_embedded` for a post whose `_links` are given, or undefined when WordPress would add none. */
  of(post: PostRow, links: unknown): Record<string, unknown> | undefined;
}

/** What core embeds when the linked route answers an error: the error object itself. */
const error = (code: string, message: string, status: number) => ({ code, message, data: { status } });

/**
 * `_embed`: the linked authors, terms, featured media, parent pages and replies of a page of posts, loaded once
 * for all of them and only for the relations asked for; each as its own route would answer the caller in
 * `embed` context (errors included), as WordPress dispatches every embeddable link.
 */
export async function embedFor(
  store: ContentStore,
  posts: PostRow[],
  request: FastifyRequest,
  rels: EmbedRels,
): Promise<Embedded> {
  const site = siteOf(request);
  const user = caller(request);
  const users = new Map<number, UserRow>();
  const published = new Set<number>();
  if (wants(rels, 'author')) {
    for (const u of await store.findUsers([...new Set(posts.map((p) => p.author))])) {
      users.set(u.id, u);
      // users/<id> shows others only to list_users or when they have published posts.
      if (u.id !== user?.id && !can(user, 'list_users') && (await store.userHasPublishedPosts(u.id)))
        published.add(u.id);
    }
  }
  const terms = new Map<number, TermRow>();
  const termIds = wants(rels, 'wp:term')
    ? [...new Set(posts.flatMap((p) => [...p.categories, ...p.tags]))]
    : [];
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
  const relatedIds = posts.flatMap((p) => [
    wants(rels, 'wp:featuredmedia') ? p.featured_media : 0,
    wants(rels, 'up') && p.type === 'page' ? p.parent : 0,
  ]);
  for (const id of new Set(relatedIds)) {
    if (!id) continue;
    const found = await store.findPost(id);
    if (found) related.set(id, found);
    // An attachment is as visible as the post it is attached to (media/<id> checks that one).
    if (found?.type === 'attachment' && found.parent && !related.has(found.parent)) {
      const parent = await store.findPost(found.parent);
      if (parent) related.set(parent.id, parent);
    }
  }
  const mediaReadable = (media: PostRow) => {
    if (media.status !== 'inherit') return canRead(user, media);
    const parent = media.parent ? related.get(media.parent) : undefined;
    return !parent || canRead(user, parent);
  };
  // The `replies` link: approved comments, as `/comments?post=<id>` shows them (10 to a page).
  const replies = new Map<number, CommentRow[]>();
  if (posts.length && wants(rels, 'replies')) {
    const { rows } = await new CommentStore(store.db).list({
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
      return term ? [renderTerm(term, site, 'embed')] : [];
    });
  const embedOne = (post: PostRow, rel: string): unknown[] | undefined => {
    switch (rel) {
      case 'author': {
        const author = users.get(post.author);
        if (!author) return [error('rest_user_invalid_id', 'Invalid user ID.', 404)];
        if (author.id !== user?.id && !can(user, 'list_users') && !published.has(author.id))
          return [
            error('rest_user_cannot_view', 'Sorry, you are not allowed to list users.', user ? 403 : 401),
          ];
        return [renderUser(author, site, 'embed')];
      }
      case 'wp:featuredmedia': {
        const media = related.get(post.featured_media);
        if (media?.type !== 'attachment') return [error('rest_post_invalid_id', 'Invalid post ID.', 404)];
        if (!mediaReadable(media))
          return [error('rest_forbidden', 'Sorry, you are not allowed to do that.', user ? 403 : 401)];
        const parent = media.parent ? related.get(media.parent) : undefined;
        return [{ ...renderMedia(media, site, 'embed'), link: attachmentLink(media, parent, site) }];
      }
      case 'up': {
        const parent = related.get(post.parent);
        if (parent?.type !== 'page') return [error('rest_post_invalid_id', 'Invalid post ID.', 404)];
        if (!canRead(user, parent))
          return [error('rest_forbidden', 'Sorry, you are not allowed to do that.', user ? 403 : 401)];
        return [renderPost(parent, site, 'embed')];
      }
      case 'replies': {
        const found = replies.get(post.id);
        return found ? [found.slice(0, 10).map((c) => renderComment(c, site, 'embed'))] : undefined;
      }
      case 'wp:term': {
        const lists = [termsOf(post.categories), termsOf(post.tags)];
        return lists.some((list) => list.length) ? lists : undefined;
      }
      default:
        return undefined;
    }
  };
  return {
    rels,
    of(post, links) {
      const out: Record<string, unknown> = {};
      for (const rel of embeddableRels(links, rels)) {
        const embeds = embedOne(post, rel);
        if (embeds) out[rel] = embeds;
      }
      return Object.keys(out).length ? out : undefined;
    },
  };
}

/** The item with its `_embedded` after `_links`, when anything is embedded. */
export function withEmbedded(body: Record<string, unknown>, post: PostRow, embedded: Embedded | undefined) {
  const found = embedded?.of(post, body._links);
  return found ? { ...body, _embedded: found } : body;
}
