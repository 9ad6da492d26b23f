import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryError } from './errors.js';
import { jsonServerOptions, type QueryOptions, runQuery } from './index.js';
import { likeMatcher, maxPatternLength, maxPatternProgram } from './pattern.js';

// json-server 0.17.4: `field_like=v` keeps items where `new RegExp(v, 'i').test(String(field))`, any value matching.
const items = [
  { id: 1, name: 'Alice Smith', code: 10 },
  { id: 2, name: 'bob', code: 2, tags: ['x', 'y'] },
  { id: 3, name: 'a.c', code: null },
  { id: 4, name: '(paren)', nested: { word: 'Hello' } },
  { id: 5 },
];
const literal: QueryOptions = { ...jsonServerOptions, invalidPattern: 'literal' };
const run = (query: Record<string, string | string[]>, options = jsonServerOptions) =>
  runQuery(items, query, 'http://h/items', options).items.map((item) => (item as { id: number }).id);

/** The message of the QueryError the query is refused with. */
function refusal(query: Record<string, string | string[]>): string {
  try {
    run(query);
  } catch (error) {
    assert.ok(error instanceof QueryError);
    assert.equal(error.statusCode, 400);
    return error.message;
  }
  assert.fail('the query was not refused');
}

describe('json-query pattern: _like', () => {
  it('matches anywhere in the text, ignoring case, unless anchored', () => {
    assert.deepEqual(run({ name_like: 'SMITH' }), [1]);
    assert.deepEqual(run({ name_like: 'b' }), [2]);
    assert.deepEqual(run({ name_like: '^a' }), [1, 3]);
    assert.deepEqual(run({ name_like: 'h$' }), [1]);
    assert.deepEqual(run({ name_like: 'a.c' }), [3], '"." is any character: "Alice" has no a?c');
    assert.deepEqual(run({ name_like: 'i.e' }), [1]);
    assert.deepEqual(run({ name_like: '\\(' }), [4]);
  });

  it('matches numbers and arrays by their text, and never a missing or null field', () => {
    assert.deepEqual(run({ code_like: '^1' }), [1]);
    assert.deepEqual(run({ code_like: '0$' }), [1]);
    assert.deepEqual(run({ tags_like: '^x,y$' }), [2]);
    assert.deepEqual(run({ code_like: '.*' }), [1, 2]);
    assert.deepEqual(run({ code_like: '' }), [1, 2], 'an empty pattern matches every present value');
    assert.deepEqual(run({ 'nested.word_like': 'hel' }), [4]);
  });

  it('any of repeated values may match, and all the _like parameters must', () => {
    assert.deepEqual(run({ name_like: ['^bob$', 'smith'] }), [1, 2]);
    assert.deepEqual(run({ name_like: '^a', code_like: '1' }), [1]);
  });

  it('refuses a pattern RE2 cannot parse, naming the parameter, the reason and the pattern', () => {
    assert.equal(
      refusal({ name_like: '(' }),
      'name_like: not a valid regular expression (missing closing ): `(`; RE2 syntax: no backreferences or lookaround): (',
    );
    assert.equal(
      refusal({ name_like: '[z-a]' }),
      'name_like: not a valid regular expression (invalid character class range: `z-a`; RE2 syntax: no backreferences or lookaround): [z-a]',
    );
    assert.match(
      refusal({ name_like: '(?=a)' }),
      /^name_like: not a valid regular expression \(invalid or unsupported Perl syntax/,
    );
    assert.match(refusal({ name_like: 'a(?!b)' }), /^name_like: not a valid regular expression/);
    assert.match(
      refusal({ name_like: ['ok', '(a)\\1'] }),
      /^name_like: .*invalid escape sequence: `\\1`.*: \(a\)\\1$/,
    );
  });

  it('refuses a pattern that is too long or compiles too large, before matching anything', () => {
    assert.equal(maxPatternLength, 256);
    assert.equal(maxPatternProgram, 1000);
    assert.deepEqual(run({ name_like: 'a'.repeat(256) }), []);
    assert.equal(
      refusal({ name_like: 'a'.repeat(257) }),
      `name_like: pattern longer than 256 characters: ${'a'.repeat(257)}`,
    );
    assert.deepEqual(run({ name_like: 'a{998}' }), []);
    assert.equal(
      refusal({ name_like: 'a{999}' }),
      'name_like: pattern too complex (compiled size 1001, at most 1000): a{999}',
    );
  });

  it('refuses an invalid pattern even when no item has the field', () => {
    assert.match(refusal({ missing_like: '(' }), /^missing_like: /);
  });

  it('literal: an invalid pattern matches as plain text, ignoring case; valid ones stay patterns', () => {
    assert.deepEqual(run({ name_like: '(PAREN' }, literal), [4]);
    assert.deepEqual(run({ name_like: '(' }, literal), [4]);
    assert.deepEqual(run({ name_like: ['(', '^b'] }, literal), [2, 4]);
    assert.deepEqual(run({ name_like: 'a'.repeat(257) }, literal), []);
  });
});

describe('json-query pattern: likeMatcher', () => {
  it('runs several patterns as one, and one by one when joining them fails', () => {
    const joined = likeMatcher('f_like', ['^x', 'y$'], 'reject');
    assert.deepEqual(['xa', 'ay', 'ya', 'ax'].map(joined), [true, true, false, false]);
    const clashing = likeMatcher('f_like', ['(?P<n>x)', '(?P<n>y)'], 'reject');
    assert.deepEqual(['x', 'y', 'z'].map(clashing), [true, true, false]);
  });

  it('takes time linear in the text for patterns that backtrack in other engines', () => {
    const matches = likeMatcher('f_like', ['^(a|aa)+$'], 'reject');
    const started = performance.now();
    assert.equal(matches(`${'a'.repeat(5000)}!`), false);
    assert.ok(performance.now() - started < 1000);
  });
});
