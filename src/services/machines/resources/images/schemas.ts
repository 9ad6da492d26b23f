import { Type } from '@sinclair/typebox';
import { PageQuery, TagName } from '../../schemas.js';

export const ImageSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  distribution: Type.String(),
  slug: Type.Union([Type.String(), Type.Null()]),
  public: Type.Boolean(),
  regions: Type.Array(Type.String()),
  created_at: Type.String(),
  min_disk_size: Type.Integer(),
  type: Type.String(),
  size_gigabytes: Type.Number(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  status: Type.String(),
  error_message: Type.String(),
});

export const ImagesQuery = Type.Object({
  ...PageQuery,
  type: Type.Optional(Type.String()),
  private: Type.Optional(Type.Boolean()),
  tag_name: TagName,
});
