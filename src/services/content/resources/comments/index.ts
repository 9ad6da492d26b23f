import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { can } from '../../capabilities.js';
import { pickItemFields } from '../../embed-param.js';
import { restError } from '../../errors.js';
import { fieldList, paginate, sendFields } from '../../http.js';
import { splitListParams } from '../../post-list.js';
import { coerceIntegers } from '../../post-write.js';
import { type Context, withoutLinks } from '../../render.js';
import { argsOf } from '../../route-spec.js';
import { ContextEnum, ForceQuery, ItemQuery, isTrue } from '../../schemas.js';
import { type Call, type Check, defineResource } from '../contract.js';
import { checkCreate, checkEdit, checkList, checkRead, findComment } from './access.js';
import { listFilter, openedComments } from './list.js';
import { renderComment } from './render.js';
import { CommentListQuery, CommentSchema, CommentWriteBody, commentItemSchema } from './schemas.js';
import { type CommentRow, CommentStore } from './store.js';
import { changedFields, newComment } from './write.js';

// WordPress's `/wp/v2/comments` (WP_REST_Comments_Controller): nested comments with core's moderation statuses;
// anonymous comments are off, as in core.

const comments = (check: Check) => new CommentStore(check.store.db);

const render = (call: Call, comment: CommentRow, context: Context) =>
  renderComment(comment, call.site, context) as Record<string, unknown>;

/** A read's answer with only the `_fields` asked for (serialized as they are: the item schema is open). */
function readFields(call: Call) {
  const fields = fieldList(call.query._fields as string | undefined);
  sendFields(call.reply, fields);
  return (body: Record<string, unknown>, collection = false) =>
    pickItemFields(call.request, body, fields, collection);
}

/** WordPress's list parameters (`post=1,2`) and its integer strings in form bodies (`post=1`). */
function prepare(request: FastifyRequest) {
  splitListParams(request);
  coerceIntegers(request.body, ['post', 'parent', 'author']);
}

async function list(call: Call) {
  const q = call.query as typeof CommentListQuery.static;
  const { rows, total } = await comments(call).list(listFilter(q, call.me));
  const perPage = q.per_page ?? 10;
  paginate(call.request, call.reply, total, q.page ?? 1, Math.ceil(total / perPage));
  const picked = readFields(call);
  const opened = await openedComments(rows, q, call.me, (id) => call.store.findPost(id));
  return opened.map((c) => picked(render(call, c, call.context as Context), true));
}

const duplicate = () =>
  restError(
    409,
    'comment_duplicate',
    'Duplicate comment detected; it looks as though you’ve already said that!',
  );
const flood = () => restError(400, 'comment_flood', 'You are posting comments too quickly. Slow down.');

async function create(call: Call) {
  const store = comments(call);
  const fields = await newComment(call, store);
  // wp_allow_comment: a duplicate, then a flood (moderators and administrators are not throttled).
  const throttled = !can(call.me, 'moderate_comments') && !can(call.me, 'manage_options');
  const created = await store.create(fields, { now: new Date(call.clock.now()), flood: throttled });
  if (created === 'duplicate') throw duplicate();
  if (created === 'flood') throw flood();
  call.reply.header('location', `${call.site.api}/wp/v2/comments/${created.id}`);
  // As core's create_item: only moderators get the new comment in edit context (e-mail, IP, raw content).
  return render(call, created, can(call.me, 'moderate_comments') ? 'edit' : 'view');
}

async function read(call: Call) {
  const comment = await findComment(call);
  return readFields(call)(render(call, comment, call.context as Context));
}

async function update(call: Call) {
  const comment = await findComment(call);
  const updated = await comments(call).save(await changedFields(call, comment), comment.id);
  return render(call, updated, 'edit');
}

async function remove(call: Call) {
  const comment = await findComment(call);
  const force = isTrue((call.body.force ?? call.query.force) as never);
  if (force) {
    const previous = withoutLinks(render(call, comment, 'edit'));
    await comments(call).delete(comment);
    return { deleted: true, previous };
  }
  if (comment.status === 'trash')
    throw restError(410, 'rest_already_trashed', 'The comment has already been trashed.');
  const trashed = await comments(call).save({ status: 'trash', trashed_from: comment.status }, comment.id);
  return render(call, trashed, 'edit');
}

const IdParams = Type.Object({ id: Type.Integer({ description: 'The id of the item.' }) });
const passwordArg = { password: { type: 'string', required: false } };

export const commentsResource = defineResource({
  name: 'comments',
  schema: commentItemSchema,
  routes: [
    {
      path: '/wp/v2/comments',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'List comments (10 a page, as core)',
          querystring: CommentListQuery,
          response: Type.Array(CommentSchema),
          prepare,
          check: checkList,
          handle: list,
        },
        {
          methods: ['POST'],
          summary: 'Post a comment (logged-in users; moderators’ comments are approved)',
          body: CommentWriteBody,
          response: CommentSchema,
          status: 201,
          prepare,
          check: checkCreate,
          handle: create,
        },
      ],
    },
    {
      path: '/wp/v2/comments/(?P<id>[\\d]+)',
      params: IdParams,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Read a comment',
          querystring: Type.Object({
            context: Type.Optional(ContextEnum),
            password: Type.Optional(Type.String()),
            _fields: Type.Optional(Type.String()),
          }),
          response: CommentSchema,
          args: { ...argsOf(IdParams), ...argsOf(ItemQuery), ...passwordArg },
          check: checkRead,
          handle: read,
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Edit or moderate a comment',
          body: CommentWriteBody,
          response: CommentSchema,
          prepare,
          check: checkEdit('rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.'),
          handle: update,
        },
        {
          methods: ['DELETE'],
          summary: 'Trash a comment, or delete it with force=true',
          querystring: ForceQuery,
          body: ForceQuery,
          response: CommentSchema,
          args: { ...argsOf(IdParams), ...argsOf(ForceQuery), ...passwordArg },
          check: checkEdit('rest_cannot_delete', 'Sorry, you are not allowed to delete this comment.'),
          handle: remove,
        },
      ],
    },
  ],
});
