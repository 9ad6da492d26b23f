import { timingSafeEqual } from 'node:crypto';
import { canOnPost, canRead } from './capabilities.js';
import type { PostRow, UserRow } from './store.js';

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
