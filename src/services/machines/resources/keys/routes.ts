import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import { notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { pagedList, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses, Meta, PageLinks } from '../../schemas.js';
import { parsePublicKey } from './sshkey.js';
import { deleteKey, findKey, insertKey, listKeys, renameKey } from './store.js';

const KeySchema = Type.Object({
  id: Type.Integer(),
  fingerprint: Type.String(),
  public_key: Type.String(),
  name: Type.String(),
});
const KeyParams = Type.Object({
  ssh_key_identifier: Type.String({ pattern: '^([0-9]{1,10}|([0-9a-fA-F]{2}:){15}[0-9a-fA-F]{2})$' }),
});
const KeyBody = Type.Object({
  name: Type.Optional(Type.String()),
  public_key: Type.Optional(Type.String()),
});
const MAX_NAME = 255;

function checkName(name: string | undefined): string {
  const trimmed = name?.trim() ?? '';
  if (!trimmed) throw unprocessable('name is required.');
  if (trimmed.length > MAX_NAME) throw unprocessable(`name must be at most ${MAX_NAME} characters.`);
  return trimmed;
}

/** `/v2/account/keys`: SSH public keys, named by id or fingerprint. */
export function keyRoutes(app: TypedApp, db: Database) {
  const tags = ['ssh keys'];
  app.get(
    '/v2/account/keys',
    {
      config: { scopes: ['ssh_key:read'] },
      schema: {
        tags,
        summary: 'List SSH keys',
        querystring: CatalogQuery,
        response: {
          200: Type.Object({ ssh_keys: Type.Array(KeySchema), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      pagedList(
        request,
        'ssh_keys',
        (window) => listKeys(db, window.limit, window.offset),
        (key) => key,
      ),
  );

  app.post(
    '/v2/account/keys',
    {
      config: { scopes: ['ssh_key:create'] },
      schema: {
        tags,
        summary: 'Add an SSH public key (OpenSSH format; fingerprinted with MD5)',
        body: KeyBody,
        response: { 201: Type.Object({ ssh_key: KeySchema }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const name = checkName(request.body.name);
      const publicKey = request.body.public_key?.trim() ?? '';
      if (!publicKey) throw unprocessable('public_key is required.');
      const parsed = parsePublicKey(publicKey);
      if (!parsed) throw unprocessable("Key invalid, key should be of the form 'type key [comment]'");
      const key = await insertKey(db, { name, public_key: publicKey, fingerprint: parsed.fingerprint });
      if (!key) throw unprocessable('SSH Key is already in use on your account');
      reply.code(201);
      return { ssh_key: key };
    },
  );

  app.get(
    '/v2/account/keys/:ssh_key_identifier',
    {
      config: { scopes: ['ssh_key:read'] },
      schema: {
        tags,
        summary: 'Read an SSH key by id or fingerprint',
        params: KeyParams,
        response: { 200: Type.Object({ ssh_key: KeySchema }), ...errorResponses },
      },
    },
    async (request) => {
      const key = await findKey(db, request.params.ssh_key_identifier);
      if (!key) throw notFound();
      return { ssh_key: key };
    },
  );

  app.put(
    '/v2/account/keys/:ssh_key_identifier',
    {
      config: { scopes: ['ssh_key:update'] },
      schema: {
        tags,
        summary: "Rename an SSH key (the key itself can't change)",
        params: KeyParams,
        body: KeyBody,
        response: { 200: Type.Object({ ssh_key: KeySchema }), ...errorResponses },
      },
    },
    async (request) => {
      const key = await renameKey(db, request.params.ssh_key_identifier, checkName(request.body.name));
      if (!key) throw notFound();
      return { ssh_key: key };
    },
  );

  app.delete(
    '/v2/account/keys/:ssh_key_identifier',
    {
      config: { scopes: ['ssh_key:delete'] },
      schema: {
        tags,
        summary: 'Delete an SSH key',
        params: KeyParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!(await deleteKey(db, request.params.ssh_key_identifier))) throw notFound();
      return reply.code(204).send(null);
    },
  );
}

export const resource: Resource = { routes: (app, { db }) => keyRoutes(app, db) };
