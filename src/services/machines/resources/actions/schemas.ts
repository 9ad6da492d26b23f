import { Type } from '@sinclair/typebox';
import { Meta, PageLinks } from '../../schemas.js';
import { RegionSchema } from '../catalog/schemas.js';

export const ActionLink = Type.Object({ id: Type.Integer(), rel: Type.String(), href: Type.String() });

export const ActionSchema = Type.Object({
  id: Type.Integer(),
  status: Type.Union([Type.Literal('in-progress'), Type.Literal('completed')]),
  type: Type.String(),
  started_at: Type.String(),
  completed_at: Type.Union([Type.String(), Type.Null()]),
  resource_id: Type.Union([Type.Integer(), Type.Null()]),
  resource_type: Type.String(),
  region: Type.Union([RegionSchema, Type.Null()]),
  region_slug: Type.String(),
});

export const actionList = Type.Object({ actions: Type.Array(ActionSchema), links: PageLinks, meta: Meta });
