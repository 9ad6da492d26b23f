import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks } from '../../routing.js';
import { errorResponses } from '../../schemas.js';
import { isoSeconds } from '../../time.js';
import { checkGrants, checkName } from './rules.js';
import { KeyBody, KeyParams, KeysQuery, keyList, keyOne, newKeyOne } from './schemas.js';
import { deleteKey, findKey, insertKey, type KeyRow, listKeys, updateKey } from './store.js';

const present = (row: KeyRow) => ({
  name: row.name,
  grants: row.grants,
  access_key: row.access_key,
  created_at: isoSeconds(new Date(row.created_at)),
});

/** `/v2/spaces/keys`: access keys for Spaces buckets. */
export const resource: Resource = {
  routes(app, { db, clock }) {
    const tags = ['spaces keys'];
    const load = async (accessKey: string) => {
      const row = await findKey(db, accessKey);
      if (!row) throw notFound();
      return row;
    };
    app.post(
      '/v2/spaces/keys',
      {
        config: { scopes: ['spaces_key:create_credentials'] },
        schema: {
          tags,
          summary: 'Create a key; its secret_key is in this answer only',
          body: KeyBody,
          response: { 201: newKeyOne, ...errorResponses },
        },
      },
      async (request, reply) => {
        const name = checkName(request.body.name);
        const { row, secret } = await insertKey(
          db,
          name,
          checkGrants(request.body.grants),
          new Date(clock.now()),
        );
        reply.code(201);
        return { key: { ...present(row), secret_key: secret } };
      },
    );
    app.get(
      '/v2/spaces/keys',
      {
        config: { scopes: ['spaces_key:read'] },
        schema: {
          tags,
          summary: 'List keys (name, bucket, permission filters; sort created_at or name)',
          querystring: KeysQuery,
          response: { 200: keyList, ...errorResponses },
        },
      },
      async (request) => {
        const p = page(request.query);
        const q = request.query;
        const { rows, total } = await listKeys(db, {
          name: q.name,
          bucket: q.bucket,
          permission: q.permission,
          sort: q.sort ?? 'created_at',
          direction: q.sort_direction ?? 'desc',
          limit: p.perPage,
          offset: p.offset,
        });
        return {
          keys: rows.map(present),
          links: pageLinks(request, total, p.page, p.perPage),
          meta: { total },
        };
      },
    );
    app.get(
      '/v2/spaces/keys/:access_key',
      {
        config: { scopes: ['spaces_key:read'] },
        schema: {
          tags,
          summary: 'Read a key (without its secret)',
          params: KeyParams,
          response: { 200: keyOne, ...errorResponses },
        },
      },
      async (request) => ({ key: present(await load(request.params.access_key)) }),
    );
    for (const method of ['put', 'patch'] as const) {
      app[method](
        '/v2/spaces/keys/:access_key',
        {
          config: { scopes: ['spaces_key:update'] },
          schema: {
            tags,
            summary: method === 'put' ? 'Replace a key’s name and grants' : 'Change a key’s name or grants',
            params: KeyParams,
            body: KeyBody,
            response: { 200: keyOne, ...errorResponses },
          },
        },
        async (request) => {
          const row = await load(request.params.access_key);
          const body = request.body ?? {};
          const partial = method === 'patch';
          const name = partial && body.name === undefined ? row.name : checkName(body.name);
          const grants = partial && body.grants === undefined ? row.grants : checkGrants(body.grants);
          return { key: present(await updateKey(db, row.access_key, name, grants)) };
        },
      );
    }
    app.delete(
      '/v2/spaces/keys/:access_key',
      {
        config: { scopes: ['spaces_key:delete'] },
        schema: {
          tags,
          summary: 'Delete a key',
          params: KeyParams,
          response: { 204: Type.Null({ description: 'Done' }), ...errorResponses },
        },
      },
      async (request, reply) => {
        await deleteKey(db, (await load(request.params.access_key)).access_key);
        return reply.code(204).send(null);
      },
    );
  },
};
