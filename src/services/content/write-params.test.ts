import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (method: 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: { authorization: t.auth.admin } });

test('a write takes the post fields the query string carries; the body’s win', async () => {
  const made = await send(
    'POST',
    `${api}/posts?title=From%20the%20query&status=publish&_fields=title,status,slug`,
  );
  assert.equal(made.statusCode, 201);
  assert.deepEqual(json(made), {
    title: { raw: 'From the query', rendered: 'From the query' },
    status: 'publish',
    slug: 'from-the-query',
  });
  const both = await send('POST', `${api}/posts?title=Query&status=pending&_fields=title.raw,status`, {
    title: 'Body wins',
  });
  assert.deepEqual(json(both), { title: { raw: 'Body wins' }, status: 'pending' });
  const bad = await send('POST', `${api}/posts?status=bogus`, { title: 'x' });
  assert.deepEqual([bad.statusCode, json(bad).code], [400, 'rest_invalid_param']);
});

test('_fields trims the answer of a write as of a read, terms too', async () => {
  const updated = await send('PUT', `${api}/posts/5?excerpt=Short&_fields=id,excerpt.raw`, {
    title: 'Renamed',
  });
  assert.deepEqual([updated.statusCode, json(updated)], [200, { id: 5, excerpt: { raw: 'Short' } }]);
  const tag = await send('POST', `${api}/tags?name=querytag&_fields=name,slug,count`);
  assert.deepEqual([tag.statusCode, json(tag)], [201, { name: 'querytag', slug: 'querytag', count: 0 }]);
});
