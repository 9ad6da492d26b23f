import { avatarUrl, type Context, renderHtml, restBase, wpDate } from '../../render.js';
import { texturize } from '../../render-text.js';
import type { Site } from '../../site.js';
import type { CommentRow } from './store.js';

const restStatus = (status: string) => (status === 'approved' ? 'approved' : status);

/** get_avatar_url of a comment: a registered author's own e-mail, else the one given; none hashes to nothing. */
const avatars = (email: string) => {
  const url = email.trim() ? avatarUrl(email) : 'https://secure.gravatar.com/avatar/?s=96&d=mm&r=g';
  return { '24': url.replace('s=96', 's=24'), '48': url.replace('s=96', 's=48'), '96': url };
};

/** A comment as core's comments controller shows it (edit context adds e-mail, IP and user agent). */
export function renderComment(c: CommentRow, site: Site, context: Context) {
  const postLink =
    c.post_status === 'publish' && c.post_slug ? `${site.url}/${c.post_slug}/` : `${site.url}/?p=${c.post}`;
  const links: Record<string, object[]> = {
    self: [{ href: `${site.api}/wp/v2/comments/${c.id}` }],
    collection: [{ href: `${site.api}/wp/v2/comments` }],
  };
  if (c.author) links.author = [{ embeddable: true, href: `${site.api}/wp/v2/users/${c.author}` }];
  links.up = [
    {
      embeddable: true,
      post_type: c.post_type,
      href: `${site.api}/wp/v2/${restBase(c.post_type)}/${c.post}`,
    },
  ];
  if (c.parent) links['in-reply-to'] = [{ embeddable: true, href: `${site.api}/wp/v2/comments/${c.parent}` }];
  if (c.has_children)
    links.children = [{ embeddable: true, href: `${site.api}/wp/v2/comments?parent=${c.id}` }];
  const rendered = texturize(renderHtml(c.content));
  const view = {
    id: c.id,
    post: c.post,
    parent: c.parent,
    author: c.author,
    author_name: c.author_name,
    author_url: c.author_url,
    date: wpDate(c.date),
    date_gmt: wpDate(c.date),
    content: context === 'edit' ? { rendered, raw: c.content } : { rendered },
    link: `${postLink}#comment-${c.id}`,
    status: restStatus(c.status),
    type: c.type,
    author_avatar_urls: avatars(c.avatar_email),
    meta: [],
    _links: links,
  };
  if (context === 'embed') {
    const { post: _p, status: _s, meta: _m, ...embed } = view;
    return embed;
  }
  if (context !== 'edit') return view;
  return {
    ...view,
    author_email: c.author_email,
    author_ip: c.author_ip,
    author_user_agent: c.author_user_agent,
  };
}
