import { can } from '../../capabilities.js';
import { restError } from '../../errors.js';
import { dateParam, invalidParam } from '../../post-dates.js';
import type { Call } from '../contract.js';
import { commentPostId } from './access.js';
import { type CommentWriteBody, statusNames, text } from './schemas.js';
import type { CommentFields, CommentRow, CommentStatus, CommentStore, NewComment } from './store.js';

type WriteBody = typeof CommentWriteBody.static;

const invalidContent = () => restError(400, 'rest_comment_content_invalid', 'Invalid comment content.');

/**
 * create_item after its permission check (checkCreate): the body's own refusals (400s) in core's order, then the
 * new comment's columns. A moderator's comment is approved, as is one from an e-mail with an approved comment.
 */
export async function newComment(call: Call, comments: CommentStore): Promise<NewComment> {
  const { store, request } = call;
  const me = call.me as NonNullable<Call['me']>;
  const body = call.body as WriteBody;
  if (body.type !== undefined && body.type !== 'comment')
    throw restError(400, 'rest_invalid_comment_type', 'Cannot create a comment with that type.');
  const content = text(body.content) ?? '';
  if (content.trim() === '') throw invalidContent();
  const post = commentPostId(call);
  const parent = body.parent ?? 0;
  if (parent) {
    const parentComment = await comments.find(parent);
    if (!parentComment || parentComment.post !== post)
      throw restError(400, 'rest_comment_invalid_parent', 'Invalid comment parent ID.');
  }
  const author = body.author !== undefined ? await store.findUser(body.author) : me;
  if (!author) throw restError(400, 'rest_comment_author_invalid', 'Invalid comment author ID.');
  const email = body.author_email ?? author.email;
  const status: CommentStatus =
    body.status !== undefined
      ? (statusNames[body.status] ?? 'hold')
      : can(me, 'moderate_comments') || (await comments.previouslyApproved(email))
        ? 'approved'
        : 'hold';
  return {
    post,
    parent,
    author: author.id,
    author_name: body.author_name ?? author.display_name,
    author_email: email,
    author_url: body.author_url ?? author.url,
    author_ip: body.author_ip ?? request.ip,
    author_user_agent: body.author_user_agent ?? String(request.headers['user-agent'] ?? ''),
    content,
    status,
    date: dateParam('date', body.date),
  };
}

/** update_item after check_edit_permission: the body's refusals, then the columns it changes. */
export async function changedFields(call: Call, comment: CommentRow): Promise<CommentFields> {
  const { store, request } = call;
  const body = call.body as WriteBody;
  if (body.type !== undefined && body.type !== comment.type)
    throw restError(
      404,
      'rest_comment_invalid_type',
      'Sorry, you are not allowed to change the comment type.',
    );
  const status = body.status === undefined ? undefined : statusNames[body.status];
  if (body.status !== undefined && !status)
    throw invalidParam('status', 'Invalid comment status.', 'rest_comment_failed_edit');
  if (body.post !== undefined && body.post !== comment.post && !(await store.findPost(body.post)))
    throw restError(
      403,
      'rest_comment_invalid_post_id',
      'Sorry, you are not allowed to update the comment with this post.',
    );
  const content = text(body.content);
  if (content !== undefined && content.trim() === '') throw invalidContent();
  return {
    post: body.post,
    parent: body.parent,
    content,
    author: body.author,
    author_name: body.author_name,
    author_email: body.author_email,
    author_url: body.author_url,
    // As core's prepare_item_for_database, an update records who sent it unless told otherwise.
    author_ip: body.author_ip ?? request.ip,
    author_user_agent: body.author_user_agent || request.headers['user-agent'] || undefined,
    date: dateParam('date', body.date),
    status,
    trashed_from: status && comment.status === 'trash' ? null : undefined,
  };
}
