import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { can, canRead } from './capabilities.js';
import { canEditComment, canReadComment, commentPostReadable, type PostAccess } from './comment-access.js';
import { renderComment } from './comment-render.js';
import { CommentListQuery, CommentSchema, CommentWriteBody, statusNames, text } from './comment-schemas.js';
import { pickItemFields } from './embed-param.js';
import { refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { dateParam, invalidParam } from './post-dates.js';
import { splitListParams } from './post-list.js';
import { coerceIntegers } from './post-write.js';
import { type Context, withoutLinks } from './render.js';
import { ContextEnum, ForceQuery, IdParams, isTrue, responses } from './schemas.js';
import type { ContentStore, PostRow, UserRow } from './store.js';
import { type CommentRow, type CommentStatus, CommentStore } from './store-comments.js';

const base = '/wp-json/wp/v2/comments';
const item = `${base}/:id(^\\d+$)`;
const tags = ['comments'];

/** `/wp/v2/comments`: nested comments with core's moderation statuses; anonymous comments are off, as in core. */
const duplicateComment = () =>
  restError(
    409,
    'comment_duplicate',
    'Duplicate comment detected; it looks as though you’ve already said that!',
  );

export function commentRoutes(store: ContentStore): FastifyPluginAsync {
  const comments = new CommentStore(store.db);
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('preValidation', async (request) => {
      splitListParams(request);
      coerceIntegers(request.body, ['post', 'parent', 'author']);
    });

    const findComment = async (id: number) => {
      const comment = validId(id) ? await comments.find(id) : undefined;
      if (!comment) throw restError(404, 'rest_comment_invalid_id', 'Invalid comment ID.');
      return comment;
    };
    const postOf = (comment: CommentRow) => store.findPost(comment.post);
    /**
     * As core's check_read_post_permission: a post as commentPostReadable says; an attachment as readable as its
     * post, and public when unattached.
     */
    const readablePost = async (user: UserRow | undefined, post: PostRow, access: PostAccess) => {
      if (post.status !== 'inherit') return commentPostReadable(user, post, access);
      const parent = post.parent ? await store.findPost(post.parent) : undefined;
      return !parent || canRead(user, parent);
    };
    const respond = (
      request: FastifyRequest,
      comment: CommentRow,
      context: Context,
      fields?: string[],
      collection = false,
    ) => {
      const body = renderComment(comment, siteOf(request), context) as Record<string, unknown>;
      return pickItemFields(request, body, fields, collection);
    };

    app.get(
      base,
      {
        schema: {
          tags,
          summary: 'List comments (10 a page, as core)',
          querystring: CommentListQuery,
          response: responses(Type.Array(CommentSchema)),
        },
      },
      async (request, reply) => {
        const q = request.query;
        const user = caller(request);
        const context = q.context ?? 'view';
        const moderator = can(user, 'moderate_comments');
        if (context === 'edit' && !moderator)
          throw refused(!!user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
        if (!can(user, 'edit_posts')) {
          const forbidden = ['author', 'author_exclude', 'author_email'].filter(
            (p) => q[p as 'author'] !== undefined,
          );
          if (q.status !== undefined && q.status !== 'approve') forbidden.push('status');
          if (q.type !== undefined && q.type !== 'comment') forbidden.push('type');
          if (forbidden.length)
            throw refused(
              !!user,
              'rest_forbidden_param',
              `Query parameter not permitted: ${forbidden.join(', ')}`,
            );
        }
        const access = { context, password: q.password, single: q.post?.length === 1 };
        for (const id of q.post ?? []) {
          const post = id ? await store.findPost(id) : undefined;
          if (post && !(await readablePost(user, post, access)))
            throw refused(
              !!user,
              'rest_cannot_read_post',
              'Sorry, you are not allowed to read the post for this comment.',
            );
          if (id === 0 && !moderator)
            throw refused(
              !!user,
              'rest_cannot_read',
              'Sorry, you are not allowed to read comments without a post.',
            );
        }
        const statusName = q.status ?? 'approve';
        const status = statusName === 'all' ? undefined : statusNames[statusName];
        const statuses: CommentStatus[] = status
          ? [status]
          : statusName === 'all'
            ? ['approved', 'hold']
            : [];
        const perPage = q.per_page ?? 10;
        const page = q.page ?? 1;
        const { rows, total } = await comments.list({
          statuses,
          posts: q.post,
          parents: q.parent,
          parentExclude: q.parent_exclude,
          authors: q.author,
          authorExclude: q.author_exclude,
          authorEmail: q.author_email,
          include: q.include,
          exclude: q.exclude,
          search: q.search,
          before: dateParam('before', q.before),
          after: dateParam('after', q.after),
          orderby: q.orderby === 'id' || q.orderby === 'post' || q.orderby === 'parent' ? q.orderby : 'date',
          order: q.order ?? 'desc',
          includeOrder: q.orderby === 'include' ? q.include : undefined,
          type: q.type,
          // Decided in SQL, so X-WP-Total counts only what the caller may read (see docs/content.md).
          visibleTo: moderator ? undefined : (user?.id ?? 'anonymous'),
          limit: perPage,
          offset: q.offset ?? (page - 1) * perPage,
        });
        paginate(request, reply, total, page, Math.ceil(total / perPage));
        // As core, comments of password-protected posts the caller has not opened are left out of the page (the
        // totals still count them).
        const posts = new Map<number, PostRow | undefined>();
        for (const id of new Set(rows.map((c) => c.post))) posts.set(id, await store.findPost(id));
        const visible = rows.filter((c) => {
          const post = posts.get(c.post);
          return !post?.password || canReadComment(user, c, post, access);
        });
        const fields = fieldList(q._fields);
        sendFields(reply, fields);
        return visible.map((c) => respond(request, c, context, fields, true));
      },
    );

    app.get(
      item,
      {
        schema: {
          tags,
          summary: 'Read a comment',
          params: IdParams,
          querystring: Type.Object({
            context: Type.Optional(ContextEnum),
            password: Type.Optional(Type.String()),
            _fields: Type.Optional(Type.String()),
          }),
          response: responses(CommentSchema),
        },
      },
      async (request, reply) => {
        const user = caller(request);
        const comment = await findComment(request.params.id);
        const post = await postOf(comment);
        const context = request.query.context ?? 'view';
        if (context === 'edit' && !canEditComment(user, post))
          throw refused(!!user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
        const access = { context, password: request.query.password, single: true };
        if (!canReadComment(user, comment, post, access))
          throw refused(!!user, 'rest_cannot_read', 'Sorry, you are not allowed to read this comment.');
        if (post && !commentPostReadable(user, post, access))
          throw refused(
            !!user,
            'rest_cannot_read_post',
            'Sorry, you are not allowed to read the post for this comment.',
          );
        const fields = fieldList(request.query._fields);
        sendFields(reply, fields);
        return respond(request, comment, context, fields);
      },
    );

    app.post(
      base,
      {
        schema: {
          tags,
          summary: 'Post a comment (logged-in users; moderators’ comments are approved)',
          body: Type.Optional(CommentWriteBody),
          response: responses(CommentSchema, 201),
        },
      },
      async (request, reply) => {
        const user = caller(request);
        const body = request.body ?? {};
        if (!user)
          throw restError(401, 'rest_comment_login_required', 'Sorry, you must be logged in to comment.');
        const moderator = can(user, 'moderate_comments');
        if (body.author !== undefined && body.author !== user.id && !moderator)
          throw restError(
            403,
            'rest_comment_invalid_author',
            "Sorry, you are not allowed to edit 'author' for comments.",
          );
        if (body.author_ip !== undefined && !moderator)
          throw restError(
            403,
            'rest_comment_invalid_author_ip',
            'Sorry, you are not allowed to set author_ip for comments.',
          );
        if (body.status !== undefined && !moderator)
          throw restError(
            403,
            'rest_comment_invalid_status',
            'Sorry, you are not allowed to set status for comments.',
          );
        const post = body.post ? await store.findPost(body.post) : undefined;
        if (!post || post.type === 'revision') {
          if (!body.post && moderator)
            throw restError(
              403,
              'rest_comment_invalid_post_id',
              'Sorry, you are not allowed to create this comment without a post.',
            );
          throw restError(
            403,
            'rest_comment_invalid_post_id',
            'Sorry, you are not allowed to create this comment without a post.',
          );
        }
        if (post.status === 'draft')
          throw restError(
            403,
            'rest_comment_draft_post',
            'Sorry, you are not allowed to create a comment on this post.',
          );
        if (post.status === 'trash')
          throw restError(
            403,
            'rest_comment_trash_post',
            'Sorry, you are not allowed to create a comment on this post.',
          );
        // As core (check_read_post_permission): a password-protected post needs its password (`password` in the
        // query or body) unless the caller may edit it.
        const sent = { ...(request.query as Record<string, unknown>), ...(body as Record<string, unknown>) };
        const access = {
          context: String(sent.context ?? 'view'),
          password: typeof sent.password === 'string' ? sent.password : undefined,
          single: true,
        };
        if (!commentPostReadable(user, post, access))
          throw restError(
            403,
            'rest_cannot_read_post',
            'Sorry, you are not allowed to read the post for this comment.',
          );
        if (post.comment_status !== 'open')
          throw restError(403, 'rest_comment_closed', 'Sorry, comments are closed for this item.');
        if (body.type !== undefined && body.type !== 'comment')
          throw restError(400, 'rest_invalid_comment_type', 'Cannot create a comment with that type.');
        const content = text(body.content) ?? '';
        if (content.trim() === '')
          throw restError(400, 'rest_comment_content_invalid', 'Invalid comment content.');
        const parent = body.parent ?? 0;
        if (parent) {
          const parentComment = await comments.find(parent);
          if (!parentComment || parentComment.post !== post.id)
            throw restError(400, 'rest_comment_invalid_parent', 'Invalid comment parent ID.');
        }
        const author = body.author !== undefined ? await store.findUser(body.author) : user;
        if (!author) throw restError(400, 'rest_comment_author_invalid', 'Invalid comment author ID.');
        const email = body.author_email ?? author.email;
        if (await comments.duplicate(post.id, parent, email, content)) throw duplicateComment();
        // wp_check_comment_flood (wp_allow_comment, after the duplicate check): less than 15 whole seconds since
        // the caller's or the e-mail's last comment is a flood; moderators are not throttled.
        if (!moderator && !can(user, 'manage_options')) {
          const last = await comments.lastCommentAt({ user: user.id }, email);
          const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
          if (last && seconds(new Date()) - seconds(last) < 15)
            throw restError(400, 'comment_flood', 'You are posting comments too quickly. Slow down.');
        }
        const status: CommentStatus =
          body.status !== undefined
            ? (statusNames[body.status] ?? 'hold')
            : moderator || (await comments.previouslyApproved(email))
              ? 'approved'
              : 'hold';
        const comment = await comments.createUnlessDuplicate({
          post: post.id,
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
        });
        if (!comment) throw duplicateComment();
        reply.status(201).header('location', `${siteOf(request).api}/wp/v2/comments/${comment.id}`);
        // As core's create_item: only moderators get the new comment in edit context (e-mail, IP, raw content).
        return respond(request, comment, moderator ? 'edit' : 'view');
      },
    );

    for (const method of ['POST', 'PUT', 'PATCH'] as const)
      app.route({
        method,
        url: item,
        schema: {
          tags,
          summary: 'Edit or moderate a comment',
          params: IdParams,
          body: Type.Optional(CommentWriteBody),
          response: responses(CommentSchema),
        },
        handler: async (request) => {
          const user = caller(request);
          const comment = await findComment((request.params as { id: number }).id);
          if (!canEditComment(user, await postOf(comment)))
            throw refused(!!user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.');
          const body = (request.body ?? {}) as typeof CommentWriteBody.static;
          if (body.type !== undefined && body.type !== comment.type)
            throw restError(
              404,
              'rest_comment_invalid_type',
              'Sorry, you are not allowed to change the comment type.',
            );
          const status = body.status === undefined ? undefined : statusNames[body.status];
          if (body.status !== undefined && !status)
            throw invalidParam('status', 'Invalid comment status.', 'rest_comment_failed_edit');
          if (body.post !== undefined && body.post !== comment.post) {
            const target = await store.findPost(body.post);
            if (!target)
              throw restError(
                403,
                'rest_comment_invalid_post_id',
                'Sorry, you are not allowed to update the comment with this post.',
              );
          }
          const content = text(body.content);
          if (content !== undefined && content.trim() === '')
            throw restError(400, 'rest_comment_content_invalid', 'Invalid comment content.');
          const updated = await comments.save(
            {
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
            },
            comment.id,
          );
          return respond(request, updated, 'edit');
        },
      });

    app.delete(
      item,
      {
        schema: {
          tags,
          summary: 'Trash a comment, or delete it with force=true',
          params: IdParams,
          querystring: ForceQuery,
          body: Type.Optional(ForceQuery),
        },
      },
      async (request) => {
        const user = caller(request);
        const comment = await findComment(request.params.id);
        if (!canEditComment(user, await postOf(comment)))
          throw refused(!!user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this comment.');
        if (isTrue(request.body?.force ?? request.query.force)) {
          const previous = withoutLinks(respond(request, comment, 'edit'));
          await comments.delete(comment);
          return { deleted: true, previous };
        }
        if (comment.status === 'trash')
          throw restError(410, 'rest_already_trashed', 'The comment has already been trashed.');
        const trashed = await comments.save({ status: 'trash', trashed_from: comment.status }, comment.id);
        return respond(request, trashed, 'edit');
      },
    );
  };
}
