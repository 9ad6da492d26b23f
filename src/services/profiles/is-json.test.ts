import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isJson } from './routes.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

test('isJson answers as JSON.parse does', () => {
  const texts = [
    '{ users { id fullName } }',
    '{users{id}}',
    'query Q { users { id } }',
    'fragment F on User { id }',
    'mutation { deleteUser(id: 1) }',
    '{}',
    ' { "a": 1 } ',
    '{\n"kind": "Document"}',
    '[1, 2]',
    '"0"',
    '0',
    '-1.5e3',
    'true',
    ' null\n',
    'false ',
    'truex',
    'nullable { id }',
    '',
    '   ',
    '\u00a01',
    '{ "unterminated": ',
  ];
  for (const text of texts) assert.equal(isJson(text), parses(text), JSON.stringify(text));
});

test('an ordinary GraphQL document is not handed to JSON.parse (no throw per request)', () => {
  const parse = JSON.parse;
  let calls = 0;
  JSON.parse = ((...args: Parameters<typeof parse>) => {
    calls++;
    return parse(...args);
  }) as typeof parse;
  try {
    for (const text of [
      '{ users { id fullName } }',
      'query Q { users { id } }',
      '  {\n  user(id: 1) { id }\n}',
    ])
      assert.equal(isJson(text), false);
  } finally {
    JSON.parse = parse;
  }
  assert.equal(calls, 0);
});
