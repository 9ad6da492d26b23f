import { type Static, Type } from '@sinclair/typebox';

export const ErrorBody = Type.Object(
  { code: Type.String(), description: Type.String() },
  { $id: 'ThingsError', description: 'Every error: a short code and a human-readable description' },
);
export type ErrorBody = Static<typeof ErrorBody>;

export const Credentials = Type.Object(
  {
    // PostgreSQL text cannot hold NUL: refused as bad input rather than failing the insert.
    username: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$' }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: true },
);
export type Credentials = Static<typeof Credentials>;

export const SecretHeader = Type.Object({
  'db-user-secret': Type.Optional(Type.String({ description: 'The secret returned by POST /login' })),
});

export const SignupReply = Type.Object({ userId: Type.String({ pattern: '^[0-9]+$' }) });
export const LoginReply = Type.Object({ secret: Type.String() });
export const Thing = Type.Object({ id: Type.String(), name: Type.String(), color: Type.String() });
export const ThingsReply = Type.Object({ things: Type.Array(Thing) });
