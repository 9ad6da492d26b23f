import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { all, filterByFields, first, type Query, search } from './filter.js';
import { jsonServerOptions, runQuery } from './index.js';

// json-server 0.17.4's lib/server/router/plural.js, `list`: full-text `q`, then one filter per parameter.
const items = [
  { id: 1, title: 'Apple pie', views: 9, done: true, author: { name: 'Ann', tags: ['baking'] } },
  { id: 2, title: 'banana bread', views: 10, done: false, author: { name: 'Bob', tags: [] } },
  { id: 3, title: 'Cherry tart', views: 100, done: true, author: { name: 'ann' }, note: null },
  { id: 4, title: 'date loaf', views: '10', author: { name: 'Cy', tags: ['Baking', 'fruit'] } },
  { id: 5, title: 'Elderflower', 'author.name': 'Literal' },
];
const ids = (list: unknown[]) => list.map((item) => (item as { id: number }).id);
const run = (query: Query, collection: unknown[] = items) =>
  ids(runQuery(collection, query, 'http://h/items', jsonServerOptions).items);

describe('json-query filter: field=value', () => {
  it('compares the value as text: numbers and booleans match their spelling, not other spellings', () => {
    assert.deepEqual(run({ id: '1' }), [1]);
    assert.deepEqual(run({ id: '01' }), []);
    assert.deepEqual(run({ id: '1.0' }), []);
    assert.deepEqual(run({ views: '10' }), [2, 4]);
    assert.deepEqual(run({ done: 'true' }), [1, 3]);
    assert.deepEqual(run({ done: 'false' }), [2]);
    assert.deepEqual(run({ title: 'apple pie' }), [], 'equality is case-sensitive');
  });

  it('keeps an item when any of the repeated values matches, and drops items without the field', () => {
    assert.deepEqual(run({ id: ['1', '3', '99'] }), [1, 3]);
    assert.deepEqual(run({ done: ['true', 'false'] }), [1, 2, 3]);
  });

  it('never matches null: note=null finds nothing although one item has the field', () => {
    assert.deepEqual(run({ note: 'null' }), []);
  });

  it('ignores a plain parameter that no item of the collection has', () => {
    assert.deepEqual(run({ colour: 'red' }), [1, 2, 3, 4, 5]);
    assert.deepEqual(run({ colour: 'red', id: '2' }), [2]);
  });

  it('asks the whole collection, not what q left, whether a field exists', () => {
    // Only item 3 has `note`; q keeps 1 and 2, and note=x still filters them (to nothing).
    assert.deepEqual(run({ q: 'b' }), [1, 2, 4]);
    assert.deepEqual(run({ q: 'b', note: 'x' }), []);
  });

  it('reads nested paths a.b and a.b[0], and a key spelled "a.b" wins over the path', () => {
    assert.deepEqual(run({ 'author.name': 'Ann' }), [1]);
    assert.deepEqual(run({ 'author.name': 'Literal' }), [5]);
    assert.deepEqual(run({ 'author.tags[0]': 'baking' }), [1]);
    assert.deepEqual(run({ 'author.tags.1': 'fruit' }), [4]);
    assert.deepEqual(run({ 'author.tags': 'Baking,fruit' }), [4], 'an array compares as its toString()');
  });

  it('does not reach inherited properties: toString and constructor are unknown fields', () => {
    assert.deepEqual(run({ toString: 'x' }), [1, 2, 3, 4, 5]);
    assert.deepEqual(run({ constructor: 'x' }), [1, 2, 3, 4, 5]);
  });

  it('leaves control parameters (paging, sort, callback, _) out of the filters', () => {
    const all5 = [1, 2, 3, 4, 5];
    assert.deepEqual(run({ callback: 'x', _: '123', _embed: 'a', _expand: 'b', _delay: '1' }), all5);
    assert.deepEqual(run({ _start: '0', _sort: 'id' }), all5);
  });
});

describe('json-query filter: _ne, _gte, _lte', () => {
  it('_ne keeps items differing from every value, and drops items without the field', () => {
    assert.deepEqual(run({ id_ne: '1' }), [2, 3, 4, 5]);
    assert.deepEqual(run({ id_ne: ['1', '2'] }), [3, 4, 5]);
    assert.deepEqual(run({ views_ne: '10' }), [1, 3]);
    assert.deepEqual(run({ note_ne: 'x' }), [], 'null never passes');
  });

  it('an operator on a field no item has filters everything out (it is never ignored)', () => {
    assert.deepEqual(run({ colour_ne: 'red' }), []);
    assert.deepEqual(run({ colour_gte: '0' }), []);
    assert.deepEqual(run({ colour_like: '.' }), []);
  });

  it('compares numbers as numbers when the field is a number', () => {
    assert.deepEqual(run({ views_gte: '10' }), [2, 3, 4]);
    assert.deepEqual(run({ views_lte: '10' }), [1, 2, 4]);
    assert.deepEqual(run({ views_gte: '10', views_lte: '99' }), [2, 4]);
    assert.deepEqual(run({ id_gte: '4.5' }), [5]);
  });

  it('compares text as text when the field is text: "9" is above "10", "b" above "Cherry"', () => {
    assert.deepEqual(run({ views_gte: '9' }), [1, 2, 3], '"9" <= "10" is false for the text "10"');
    assert.deepEqual(run({ title_gte: 'b' }), [2, 4]);
    assert.deepEqual(run({ title_lte: 'b' }), [1, 3, 5]);
  });

  it('a value that is not a number never passes a number field (the text "10" compares as text)', () => {
    assert.deepEqual(run({ views_gte: 'abc' }), []);
    assert.deepEqual(run({ views_lte: 'abc' }), [4]);
  });

  it('_gte with repeated values keeps an item passing any of them', () => {
    assert.deepEqual(run({ views_gte: ['100', '10'] }), [2, 3, 4]);
    assert.deepEqual(run({ views_lte: ['9', '50'] }), [1, 2, 4]);
  });

  it('reads nested paths', () => {
    assert.deepEqual(run({ 'author.name_gte': 'a' }), [3]);
    assert.deepEqual(run({ 'author.name_ne': 'Ann' }), [2, 3, 4, 5]);
  });
});

describe('json-query filter: q', () => {
  it('matches any value at any depth, case-insensitively, and never a key', () => {
    assert.deepEqual(run({ q: 'PIE' }), [1]);
    assert.deepEqual(run({ q: 'ann' }), [1, 3]);
    assert.deepEqual(run({ q: 'fruit' }), [4], 'inside an array inside an object');
    assert.deepEqual(run({ q: 'title' }), []);
    assert.deepEqual(run({ q: 'literal' }), [5]);
  });

  it('matches numbers by their text and skips false, 0, null and empty values', () => {
    assert.deepEqual(run({ q: '10' }), [2, 3, 4]);
    assert.deepEqual(run({ q: 'true' }), [1, 3]);
    assert.deepEqual(run({ q: 'false' }), []);
    assert.deepEqual(run({ q: 'null' }), []);
    assert.deepEqual(
      run({ q: '0' }, [
        { id: 1, n: 0 },
        { id: 2, n: 10 },
      ]),
      [2],
    );
  });

  it('uses the first of repeated q values, and an empty q filters nothing', () => {
    assert.deepEqual(run({ q: ['cherry', 'apple'] }), [3]);
    assert.deepEqual(run({ q: '' }), [1, 2, 3, 4, 5]);
  });

  it('skips items that are not objects', () => {
    assert.deepEqual(search(['apple', 1, null, { id: 9, a: 'apple' }], 'apple'), [{ id: 9, a: 'apple' }]);
  });

  it('runs before the filters, which then narrow what it found', () => {
    assert.deepEqual(run({ q: 'a', done: 'true' }), [1, 3]);
  });
});

describe('json-query filter: helpers', () => {
  it('first and all read repeated parameters', () => {
    assert.equal(first(['a', 'b']), 'a');
    assert.equal(first('a'), 'a');
    assert.equal(first(undefined), undefined);
    assert.deepEqual(all(undefined), []);
    assert.deepEqual(all('a'), ['a']);
    assert.deepEqual(all(['a', 'b']), ['a', 'b']);
  });

  it('filterByFields with dots paths: a.b splits at dots only, a literal "a.b" key is not read', () => {
    const options = { paths: 'dots', invalidPattern: 'reject' } as const;
    assert.deepEqual(ids(filterByFields(items, items, { 'author.name': 'Literal' }, options)), []);
    assert.deepEqual(ids(filterByFields(items, items, { 'author.name': 'Cy' }, options)), [4]);
    assert.deepEqual(ids(filterByFields(items, items, { 'author.tags.0': 'baking' }, options)), [1]);
  });
});
