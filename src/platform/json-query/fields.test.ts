import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldAt } from './fields.js';

const item = {
  a: { b: 1, list: [{ c: 'first' }, { c: 'second' }], empty: null, none: undefined },
  'a.b': 'literal',
  'x[0]': 'bracketed',
  zero: 0,
};

describe("json-query fields: lodash paths (json-server's _.get and _.has)", () => {
  it('reads a.b, a.list[1].c and a.list.0.c', () => {
    assert.equal(fieldAt('a.list[1].c', 'lodash').get(item), 'second');
    assert.equal(fieldAt('a.list.0.c', 'lodash').get(item), 'first');
    assert.equal(fieldAt('zero', 'lodash').get(item), 0);
  });

  it('a key spelled as the path wins over reading it as a path', () => {
    assert.equal(fieldAt('a.b', 'lodash').get(item), 'literal');
    assert.equal(fieldAt('x[0]', 'lodash').get(item), 'bracketed');
  });

  it('a missing step gives undefined and has() false; a present null or undefined has() true', () => {
    for (const path of ['nope', 'a.nope', 'a.b.c', 'a.list[5].c', 'zero.x', 'a.empty.x']) {
      assert.equal(fieldAt(path, 'lodash').get(item), undefined, path);
      assert.equal(fieldAt(path, 'lodash').has(item), false, path);
    }
    assert.equal(fieldAt('a.empty', 'lodash').get(item), null);
    assert.equal(fieldAt('a.empty', 'lodash').has(item), true);
    assert.equal(fieldAt('a.none', 'lodash').has(item), true);
  });

  it("never reads inherited properties (json-server's _.has, deciding whether a field exists, does not either)", () => {
    for (const path of ['toString', 'constructor', '__proto__', 'a.hasOwnProperty', 'a.list.length.x']) {
      assert.equal(fieldAt(path, 'lodash').has(item), false, path);
      assert.equal(fieldAt(path, 'lodash').get(item), undefined, path);
    }
    assert.equal(fieldAt('a.list.length', 'lodash').get(item), 2, "an array's own length is a field");
  });

  it('reads nothing from values that are not objects', () => {
    for (const value of [null, undefined, 'text', 5]) {
      assert.equal(fieldAt('a', 'lodash').has(value), false);
      assert.equal(fieldAt('length', 'lodash').get(value), undefined);
    }
  });
});

describe('json-query fields: dots paths', () => {
  it('splits at every dot only: a literal "a.b" key and brackets are not read', () => {
    assert.equal(fieldAt('a.b', 'dots').get(item), 1);
    assert.equal(fieldAt('a.list.1.c', 'dots').get(item), 'second');
    assert.equal(fieldAt('a.list[1].c', 'dots').has(item), false);
    assert.equal(fieldAt('x[0]', 'dots').get(item), 'bracketed');
    assert.equal(fieldAt('a.empty', 'dots').has(item), true);
    assert.equal(fieldAt('a..b', 'dots').has(item), false);
  });
});
