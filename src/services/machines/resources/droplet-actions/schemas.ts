import { Type } from '@sinclair/typebox';
import { TagName } from '../../schemas.js';

export const ActionBody = Type.Object({
  type: Type.String(),
  size: Type.Optional(Type.String()),
  disk: Type.Optional(Type.Boolean()),
  image: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
  name: Type.Optional(Type.String()),
  kernel: Type.Optional(Type.Integer()),
  backup_policy: Type.Optional(
    Type.Object({
      plan: Type.Optional(Type.String()),
      weekday: Type.Optional(Type.String()),
      hour: Type.Optional(Type.Integer()),
    }),
  ),
});

export const MachineActionParams = Type.Object({
  id: Type.String({ pattern: '^[0-9]{1,10}$' }),
  action_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
});
export const ByTagQuery = Type.Object({ tag_name: TagName });
