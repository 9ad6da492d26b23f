import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonServerOptions, QueryError, type QueryOptions, runQuery } from './index.js';

const long = `${'a'.repeat(30)}!`;
const collection = [{ id: 1, name: long }, { id: 2, name: 'aaa' }, { id: 3, name: 'AB(a)\\1' }, { id: 4 }];
const literal: QueryOptions = { ...jsonServerOptions, invalidPattern: 'literal' };
const ids = (query: Record<string, string | string[]>, options = jsonServerOptions) =>
  runQuery(collection, query, 'http://h/x', options).items.map((item) => (item as { id: number }).id);

describe('json-query: _like', () => {
  it('answers ^(a+)+$ over 30 a\'s and a "!" (a backtracking engine would take minutes)', () => {
    assert.deepEqual(ids({ name_like: '^(a+)+$' }), [2]);
    assert.deepEqual(ids({ name_like: '^(a+)+!$' }), [1]);
  });

  it('refuses what RE2 cannot run with a QueryError (400), or matches it as text when told to', () => {
    assert.throws(
      () => ids({ name_like: '(a)\\1' }),
      (error) =>
        error instanceof QueryError && error.statusCode === 400 && /^name_like: /.test(error.message),
    );
    assert.deepEqual(ids({ name_like: '(A)\\1' }, literal), [3]);
    assert.deepEqual(ids({ name_like: ['(a)\\1', '^a+$'] }, literal), [2, 3]);
  });

  it('matches any of several patterns, also when they could not be joined into one', () => {
    assert.deepEqual(ids({ name_like: ['!$', 'b'] }), [1, 3]);
    assert.deepEqual(ids({ name_like: ['(?P<x>!)', '(?P<x>b)'] }), [1, 3]);
  });
});
