import { Type } from '@sinclair/typebox';
import { ContextEnum, StringEnum } from '../../schemas.js';
import type { CommentStatus } from './store.js';

const Int = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
const IdList = Type.Array(Int);

/** Core's REST names for statuses, and what they are stored as. */
export const statusNames: Record<string, CommentStatus> = {
  approve: 'approved',
  approved: 'approved',
  '1': 'approved',
  hold: 'hold',
  '0': 'hold',
  spam: 'spam',
  trash: 'trash',
};

export const CommentListQuery = Type.Object({
  context: Type.Optional(ContextEnum),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Int),
  search: Type.Optional(Type.String()),
  after: Type.Optional(Type.String()),
  before: Type.Optional(Type.String()),
  author: Type.Optional(IdList),
  author_exclude: Type.Optional(IdList),
  author_email: Type.Optional(Type.String()),
  include: Type.Optional(IdList),
  exclude: Type.Optional(IdList),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  orderby: Type.Optional(
    StringEnum(['date', 'date_gmt', 'id', 'include', 'post', 'parent', 'type'] as const),
  ),
  parent: Type.Optional(IdList),
  parent_exclude: Type.Optional(IdList),
  post: Type.Optional(IdList),
  status: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  _fields: Type.Optional(Type.String()),
});

const Text = Type.Union([Type.String(), Type.Object({ raw: Type.String() })]);
export const CommentWriteBody = Type.Object({
  post: Type.Optional(Int),
  parent: Type.Optional(Int),
  content: Type.Optional(Text),
  author: Type.Optional(Int),
  author_name: Type.Optional(Type.String()),
  author_email: Type.Optional(Type.String()),
  author_url: Type.Optional(Type.String()),
  author_ip: Type.Optional(Type.String()),
  author_user_agent: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
});
export const CommentSchema = Type.Object({}, { additionalProperties: true });
export const text = (v: string | { raw: string } | undefined) => (typeof v === 'object' ? v.raw : v);

/** The item schema `OPTIONS` answers, in core's form (wordpress-routes.json's recorded one replaces it). */
export const commentItemSchema = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'comment',
  type: 'object',
  properties: Object.fromEntries(
    Object.entries({
      id: 'integer',
      author: 'integer',
      author_email: 'string',
      author_ip: 'string',
      author_name: 'string',
      author_url: 'string',
      author_user_agent: 'string',
      content: 'object',
      date: 'string',
      date_gmt: 'string',
      link: 'string',
      parent: 'integer',
      post: 'integer',
      status: 'string',
      type: 'string',
      author_avatar_urls: 'object',
      meta: 'object',
    }).map(([name, type]) => [name, { type }]),
  ),
};
