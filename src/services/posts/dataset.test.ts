import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import { buildDataset, photosAt } from './dataset.js';
import { solidPng } from './images.js';

const data = buildDataset();

describe('posts dataset', () => {
  it('has the public API counts', () => {
    assert.deepEqual(Object.fromEntries(Object.entries(data).map(([name, items]) => [name, items.length])), {
      posts: 100,
      comments: 500,
      albums: 100,
      photos: 5000,
      todos: 200,
      users: 10,
    });
  });

  it('numbers every resource 1..n in order', () => {
    for (const items of Object.values(data)) {
      assert.deepEqual(
        items.map((item: { id: number }) => item.id),
        items.map((_: unknown, index: number) => index + 1),
      );
    }
  });

  it('keeps the public API key order', () => {
    assert.deepEqual(Object.keys(data.posts[0] as object), ['userId', 'id', 'title', 'body']);
    assert.deepEqual(Object.keys(data.comments[0] as object), ['postId', 'id', 'name', 'email', 'body']);
    assert.deepEqual(Object.keys(data.albums[0] as object), ['userId', 'id', 'title']);
    assert.deepEqual(Object.keys(data.photos[0] as object), [
      'albumId',
      'id',
      'title',
      'url',
      'thumbnailUrl',
    ]);
    assert.deepEqual(Object.keys(data.todos[0] as object), ['userId', 'id', 'title', 'completed']);
    const user = data.users[0] as (typeof data.users)[number];
    assert.deepEqual(Object.keys(user), [
      'id',
      'name',
      'username',
      'email',
      'address',
      'phone',
      'website',
      'company',
    ]);
    assert.deepEqual(Object.keys(user.address), ['street', 'suite', 'city', 'zipcode', 'geo']);
    assert.deepEqual(Object.keys(user.address.geo), ['lat', 'lng']);
    assert.deepEqual(Object.keys(user.company), ['name', 'catchPhrase', 'bs']);
  });

  it('relates children to parents as the public API does', () => {
    for (const post of data.posts) assert.equal(post.userId, Math.ceil(post.id / 10));
    for (const comment of data.comments) assert.equal(comment.postId, Math.ceil(comment.id / 5));
    for (const album of data.albums) assert.equal(album.userId, Math.ceil(album.id / 10));
    for (const photo of data.photos) assert.equal(photo.albumId, Math.ceil(photo.id / 50));
    for (const todo of data.todos) assert.equal(todo.userId, Math.ceil(todo.id / 20));
  });

  it('has multi-line bodies, email addresses, both todo states and string coordinates', () => {
    for (const post of data.posts) assert.match(post.body, /^[a-z ]+(\n[a-z ]+){3}$/);
    for (const comment of data.comments) assert.match(comment.email, /^[^@\s]+@[^@\s]+\.[a-z]+$/);
    for (const user of data.users) {
      assert.match(user.email, /^[^@\s]+@[^@\s]+\.[a-z]+$/);
      assert.match(user.address.geo.lat, /^-?\d+\.\d{4}$/);
      assert.match(user.address.geo.lng, /^-?\d+\.\d{4}$/);
    }
    const completed = data.todos.filter((todo) => todo.completed).length;
    assert.ok(completed > 50 && completed < 150, `${completed} of 200 todos completed`);
    assert.equal(new Set(data.users.map((user) => user.username)).size, 10);
  });

  it('points every photo at a 600px image and a 150px thumbnail of the same colour', () => {
    for (const photo of data.photos) {
      const color = /^\/images\/600\/([0-9a-f]{6})\.png$/.exec(photo.url)?.[1];
      assert.ok(color, photo.url);
      assert.equal(photo.thumbnailUrl, `/images/150/${color}.png`);
    }
    const [photo] = photosAt(data.photos.slice(0, 1), 'http://api.test:8083');
    assert.equal(photo?.url, `http://api.test:8083${data.photos[0]?.url}`);
    assert.equal(data.photos[0]?.url.startsWith('/images/'), true, 'the dataset itself is not changed');
  });

  it('is byte-identical on every build and every machine', () => {
    const first = JSON.stringify(buildDataset());
    const second = JSON.stringify(buildDataset());
    assert.equal(first, second);
    // Pinned: a change to the generator, the word lists or the key order (/db's) must be a deliberate one.
    assert.equal(
      createHash('sha256').update(first).digest('hex'),
      'e63d98d73efc2189706494ab64d5eedf420994a7f573459251ac88f514cf1723',
    );
  });
});

describe('placeholder images', () => {
  it('are valid one-colour PNGs of the asked size', () => {
    const png = solidPng(600, '92c952');
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = new Map<string, Buffer>();
    for (let offset = 8; offset < png.length; ) {
      const length = png.readUInt32BE(offset);
      const type = png.toString('latin1', offset + 4, offset + 8);
      chunks.set(type, png.subarray(offset + 8, offset + 8 + length));
      assert.equal(
        png.readUInt32BE(offset + 8 + length),
        crc32(png.subarray(offset + 4, offset + 8 + length)),
      );
      offset += 12 + length;
    }
    assert.deepEqual([...chunks.keys()], ['IHDR', 'PLTE', 'IDAT', 'IEND']);
    const header = chunks.get('IHDR') as Buffer;
    assert.equal(header.readUInt32BE(0), 600);
    assert.equal(header.readUInt32BE(4), 600);
    assert.equal(chunks.get('PLTE')?.toString('hex'), '92c952');
    assert.equal(inflateSync(chunks.get('IDAT') as Buffer).length, 600 * (1 + 75));
    assert.ok(png.length < 300, `${png.length} bytes`);
  });
});
