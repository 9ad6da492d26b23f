import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonServerOptions, type Query, type QueryOptions, runQuery } from './index.js';
import { maxSortKeys, sortItems, sortKeys } from './sort.js';

// json-server 0.17.4 sorts with lodash's orderBy(_sort.split(','), _order.split(',')).
const items = [
  { id: 1, name: 'b', rank: 2, size: 10, author: { name: 'Cy' } },
  { id: 2, name: 'a', rank: 1, size: '9', author: { name: 'ann' } },
  { id: 3, name: 'B', rank: 2, size: null, author: { name: 'Bob' } },
  { id: 4, name: 'c', rank: 1, author: {} },
  { id: 5, name: 'a', rank: 2, size: 100 },
];
const lenient: QueryOptions = { ...jsonServerOptions, sortParams: 'lenient' };
const run = (query: Query, options = jsonServerOptions) =>
  runQuery(items, query, 'http://h/items', options).items.map((item) => (item as { id: number }).id);

describe('json-query sort', () => {
  it('sorts ascending by default, and descending for desc in any case', () => {
    assert.deepEqual(run({ _sort: 'id', _order: 'desc' }), [5, 4, 3, 2, 1]);
    assert.deepEqual(run({ _sort: 'id', _order: 'DESC' }), [5, 4, 3, 2, 1]);
    assert.deepEqual(run({ _sort: 'id', _order: 'asc' }), [1, 2, 3, 4, 5]);
    assert.deepEqual(run({ _sort: 'id', _order: 'down' }), [1, 2, 3, 4, 5], 'anything but desc is ascending');
  });

  it('compares text by code unit (capitals first) and keeps ties in their order (stable)', () => {
    assert.deepEqual(run({ _sort: 'name' }), [3, 2, 5, 1, 4]);
    assert.deepEqual(run({ _sort: 'name', _order: 'desc' }), [4, 1, 2, 5, 3]);
    assert.deepEqual(run({ _sort: 'rank' }), [2, 4, 1, 3, 5]);
    assert.deepEqual(run({ _sort: 'rank', _order: 'desc' }), [1, 3, 5, 2, 4]);
  });

  it('puts missing and null values last ascending and first descending; "9" compares as 9 with numbers', () => {
    assert.deepEqual(run({ _sort: 'size' }), [2, 1, 5, 3, 4]);
    assert.deepEqual(run({ _sort: 'size', _order: 'desc' }), [4, 3, 5, 1, 2]);
  });

  it('a field no item has keeps the collection order', () => {
    assert.deepEqual(run({ _sort: 'nothing' }), [1, 2, 3, 4, 5]);
    assert.deepEqual(run({ _sort: 'nothing', _order: 'desc' }), [1, 2, 3, 4, 5]);
  });

  it('sorts by several keys, each with its own order, and by nested paths', () => {
    assert.deepEqual(run({ _sort: 'rank,name' }), [2, 4, 3, 5, 1]);
    assert.deepEqual(run({ _sort: 'rank,name', _order: 'desc,asc' }), [3, 5, 1, 2, 4]);
    assert.deepEqual(run({ _sort: 'rank,name', _order: ',desc' }), [4, 2, 1, 5, 3]);
    assert.deepEqual(run({ _sort: 'author.name' }), [3, 1, 2, 4, 5]);
  });

  it('json-server options read the first _sort and _order only (json-server itself fails on repeats), keys as written', () => {
    assert.deepEqual(run({ _sort: ['rank', 'name'], _order: ['desc', 'asc'] }), [1, 3, 5, 2, 4]);
    assert.deepEqual(
      run({ _sort: 'rank, name', _order: 'asc, desc' }),
      [2, 4, 1, 3, 5],
      '" name" is no field',
    );
  });

  it('lenient joins repeated _sort and _order and trims spaces', () => {
    assert.deepEqual(run({ _sort: ['rank', 'name'], _order: ['desc', 'asc'] }, lenient), [3, 5, 1, 2, 4]);
    assert.deepEqual(run({ _sort: 'rank , name', _order: ' asc, desc ' }, lenient), [4, 2, 1, 5, 3]);
  });
});

describe('json-query sortKeys', () => {
  it('pairs each key with its order, drops a repeated key with its order, and keeps the first ten', () => {
    assert.deepEqual(sortKeys('a,b,a', 'desc,,asc', false), [
      { path: 'a', descending: true },
      { path: 'b', descending: false },
    ]);
    const many = Array.from({ length: 12 }, (_, i) => `k${i}`).join(',');
    const keys = sortKeys(many, 'desc', false);
    assert.equal(maxSortKeys, 10);
    assert.deepEqual(
      keys.map((key) => key.path),
      ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9'],
    );
    assert.deepEqual(
      keys.map((key) => key.descending),
      [true, false, false, false, false, false, false, false, false, false],
    );
  });

  it('trims only when asked', () => {
    assert.deepEqual(sortKeys(' a ', ' DESC ', false), [{ path: ' a ', descending: false }]);
    assert.deepEqual(sortKeys(' a ', ' DESC ', true), [{ path: 'a', descending: true }]);
  });

  it('sortItems puts NaN after null and undefined, and does not change its input', () => {
    const input = [{ v: Number.NaN }, { v: undefined }, { v: null }, { v: 1 }, {}];
    const sorted = sortItems(input, [{ path: 'v', descending: false }], 'lodash');
    assert.deepEqual(
      sorted.map((item) => (item as { v?: number | null }).v),
      [1, null, undefined, undefined, Number.NaN],
    );
    assert.deepEqual(
      input.map((item) => (item as { v?: number | null }).v),
      [Number.NaN, undefined, null, 1, undefined],
    );
  });
});
