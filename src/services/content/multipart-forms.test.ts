import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../test/content.js';

// WordPress reads a multipart form's fields as PHP's $_POST: a post can be written with one (issue 37 item 11).

let t: ContentTest;
before(async () => {
  t = await startContent({ listen: true });
});
after(() => t.close());

test('a multipart form writes a post from its fields; a file part is read past', async () => {
  const form = new FormData();
  form.append('title', 'From a form');
  form.append('status', 'draft');
  form.append('categories[]', '2');
  form.append('file', new Blob(['not for a post']), 'note.txt');
  const res = await fetch(`${t.url}${api}/posts`, {
    method: 'POST',
    headers: { authorization: t.auth.admin },
    body: form,
  });
  assert.equal(res.status, 201);
  const post = (await res.json()) as {
    id: number;
    title: { raw: string };
    status: string;
    categories: number[];
  };
  assert.deepEqual([post.title.raw, post.status, post.categories], ['From a form', 'draft', [2]]);
  const stored = await t.app.inject({
    method: 'GET',
    url: `${api}/posts/${post.id}?context=edit`,
    headers: { authorization: t.auth.admin },
  });
  assert.equal(json(stored).title.raw, 'From a form');
});

test('a malformed multipart body is 400, and media uploads still read their own', async () => {
  const bad = await t.app.inject({
    method: 'POST',
    url: `${api}/posts`,
    payload: 'garbage',
    headers: { authorization: t.auth.admin, 'content-type': 'multipart/form-data' },
  });
  assert.equal(bad.statusCode, 400);
  const form = new FormData();
  form.append('file', new Blob(['a note']), 'note.txt');
  form.append('title', 'A note');
  const upload = await fetch(`${t.url}${api}/media`, {
    method: 'POST',
    headers: { authorization: t.auth.admin },
    body: form,
  });
  assert.equal(upload.status, 201);
  const media = (await upload.json()) as { title: { raw: string }; mime_type: string };
  assert.deepEqual([media.title.raw, media.mime_type], ['A note', 'text/plain']);
});
