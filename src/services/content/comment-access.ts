import { timingSafeEqual } from 'node:crypto';
import { can, canOnPost, canRead } from './capabilities.js';
import type { PostRow, UserRow } from './store.js';
import type { CommentRow } from './store-comments.js';

/** What a comment request carries that opens a password-protected post (core's can_access_password_content). */
export interface PostAccess {
  context: string;
  password?: string;
  /** One post was asked for (`post=<id>` with a single id, or a single comment): only then a password counts. */
  single: boolean;
}

const samePassword = (stored: string, given: string) => {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The comments controller's check_read_post_permission: a password-protected post is readable, for its comments,
 * by whoever may edit it, or when its password (or the edit context with the right to edit) comes with a request
 * for that one post; otherwise as the post itself.
 */
export function commentPostReadable(user: UserRow | undefined, post: PostRow, access: PostAccess): boolean {
  if (!post.password) return canRead(user, post);
  const opened =
    access.single &&
    ((access.context === 'edit' && canOnPost(user, 'edit', post)) ||
      (!!access.password && samePassword(post.password, access.password)));
  return opened ? canRead(user, post) : canOnPost(user, 'edit', post);
}

/** check_edit_permission: moderators, and whoever may edit the comment's post. */
export const canEditComment = (user: UserRow | undefined, post: PostRow | undefined) =>
  !!user && (can(user, 'moderate_comments') || (post !== undefined && canOnPost(user, 'edit', post)));

/** check_read_permission: approved comments of a readable post; otherwise one's own, or those one may edit. */
export function canReadComment(
  user: UserRow | undefined,
  comment: CommentRow,
  post: PostRow | undefined,
  access: PostAccess,
): boolean {
  if (post && commentPostReadable(user, post, access) && comment.status === 'approved') return true;
  if (!user) return false;
  if (comment.author === user.id) return true;
  return canEditComment(user, post);
}
