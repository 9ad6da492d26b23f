import { Type } from '@sinclair/typebox';
import { UserSchema } from '../../schemas.js';

const Text = Type.Optional(Type.String({ maxLength: 5000 }));
export const UserWriteBody = Type.Object({
  username: Type.Optional(Type.String({ description: 'Login name (required to create; not editable).' })),
  email: Type.Optional(Type.String({ description: 'E-mail address (required to create).' })),
  password: Type.Optional(Type.String({ description: 'Password (required to create; never shown).' })),
  name: Text,
  first_name: Text,
  last_name: Text,
  nickname: Text,
  description: Text,
  url: Text,
  locale: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String({ maxLength: 200 })),
  roles: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  meta: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const UserDeleted = Type.Object({
  deleted: Type.Boolean(),
  trashed: Type.Optional(Type.Boolean()),
  previous: Type.Omit(UserSchema, ['_links']),
});

export const AppPasswordSchema = Type.Object({
  uuid: Type.String(),
  app_id: Type.String(),
  name: Type.String(),
  created: Type.String(),
  last_used: Type.Union([Type.String(), Type.Null()]),
  last_ip: Type.Union([Type.String(), Type.Null()]),
  password: Type.Optional(Type.String()),
  _links: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Object({ href: Type.String() })))),
});
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '.*\\S.*' });
const AppId = Type.String({ format: 'uuid', description: 'A UUID the application provides.' });
export const AppPasswordBody = Type.Object({ name: Type.Optional(Name), app_id: Type.Optional(AppId) });
export const AppPasswordCreateBody = Type.Object({ name: Name, app_id: Type.Optional(AppId) });
export const AppPasswordsDeleted = Type.Object({ deleted: Type.Boolean(), count: Type.Integer() });
export const AppPasswordDeleted = Type.Object({ deleted: Type.Boolean(), previous: AppPasswordSchema });
