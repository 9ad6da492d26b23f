import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Query } from './filter.js';
import { type SliceOptions, slice } from './paginate.js';

// json-server 0.17.4: `_page` (with `_limit` per page, default 10) and its Link header, else `_start`+`_end`,
// else `_start`+`_limit`, all read with parseInt; X-Total-Count (totalCount) whenever one of them slices.
const items = Array.from({ length: 25 }, (_, i) => ({ id: i + 1 }));
const jsonServer: SliceOptions = { numbers: 'json-server', links: 'json-server' };
const pageParam: SliceOptions = { numbers: 'whole', links: 'page-param' };

/** The query string as a parsed query, and the URL it came in (the Link header is built from it). */
function page(search: string, options = jsonServer, collection: unknown[] = items) {
  const params = new URLSearchParams(search);
  const query: Query = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length > 1 ? values : values[0];
  }
  const result = slice(collection, query, `http://h/items?${search}`, options);
  return {
    ids: result.items.map((item) => (item as { id: number }).id),
    total: result.totalCount,
    link: result.link,
  };
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const links = (...pairs: [string, string][]) =>
  pairs.map(([query, rel]) => `<http://h/items?${query}>; rel="${rel}"`).join(', ');

describe('json-query paginate: _page', () => {
  it('a middle page: its items, the total, and first, prev, next and last links', () => {
    assert.deepEqual(page('_page=2&_limit=10'), {
      ids: range(11, 20),
      total: 25,
      link: links(
        ['_page=1&_limit=10', 'first'],
        ['_page=1&_limit=10', 'prev'],
        ['_page=3&_limit=10', 'next'],
        ['_page=3&_limit=10', 'last'],
      ),
    });
  });

  it('the first page has no prev, the last no next, and _limit defaults to 10', () => {
    assert.deepEqual(page('_page=1'), {
      ids: range(1, 10),
      total: 25,
      link: links(['_page=1', 'first'], ['_page=2', 'next'], ['_page=3', 'last']),
    });
    assert.deepEqual(page('_page=3'), {
      ids: range(21, 25),
      total: 25,
      link: links(['_page=1', 'first'], ['_page=2', 'prev'], ['_page=3', 'last']),
    });
  });

  it('_page=0, -1 and 2.7 read as pages 1, 1 and 2', () => {
    assert.deepEqual(page('_page=0&_limit=5').ids, range(1, 5));
    assert.equal(
      page('_page=0&_limit=5').link,
      links(['_page=0&_limit=5', 'first'], ['_page=0&_limit=5', 'next'], ['_page=0&_limit=5', 'last']),
      'the links replace the text "page=1", which the URL does not hold',
    );
    assert.deepEqual(page('_page=-1&_limit=5').ids, range(1, 5));
    assert.deepEqual(page('_page=2.7&_limit=5'), {
      ids: range(6, 10),
      total: 25,
      link: links(
        ['_page=1.7&_limit=5', 'first'],
        ['_page=1.7&_limit=5', 'prev'],
        ['_page=3.7&_limit=5', 'next'],
        ['_page=5.7&_limit=5', 'last'],
      ),
    });
  });

  it('_page=abc reads as page 1, and its links keep the URL as it is', () => {
    assert.deepEqual(page('_page=abc&_limit=20'), {
      ids: range(1, 20),
      total: 25,
      link: links(
        ['_page=abc&_limit=20', 'first'],
        ['_page=abc&_limit=20', 'next'],
        ['_page=abc&_limit=20', 'last'],
      ),
    });
  });

  it('an empty _page is no paging for json-server, page 1 for whole', () => {
    assert.deepEqual(page('_page='), { ids: range(1, 25), total: undefined, link: undefined });
    assert.deepEqual(page('_page=', pageParam).ids, range(1, 10));
  });

  it('one page holding everything, and a page past the end, have an empty Link header', () => {
    assert.deepEqual(page('_page=1&_limit=30'), { ids: range(1, 25), total: 25, link: '' });
    assert.deepEqual(page('_page=4'), { ids: [], total: 25, link: '' });
  });

  it('json-server links rewrite the first "page=N" text of the URL, wherever it is', () => {
    assert.equal(
      page('mypage=2&_page=2&_limit=10').link,
      links(
        ['mypage=1&_page=2&_limit=10', 'first'],
        ['mypage=1&_page=2&_limit=10', 'prev'],
        ['mypage=3&_page=2&_limit=10', 'next'],
        ['mypage=3&_page=2&_limit=10', 'last'],
      ),
    );
  });

  it('page-param links rewrite the _page parameter itself (also when percent-encoded) and keep the rest', () => {
    assert.equal(
      page('mypage=2&_page=2&_limit=10', pageParam).link,
      links(
        ['mypage=2&_page=1&_limit=10', 'first'],
        ['mypage=2&_page=1&_limit=10', 'prev'],
        ['mypage=2&_page=3&_limit=10', 'next'],
        ['mypage=2&_page=3&_limit=10', 'last'],
      ),
    );
    assert.equal(
      page('%5Fpage=abc&_limit=20', pageParam).link,
      links(['_page=1&_limit=20', 'first'], ['_page=2&_limit=20', 'next'], ['_page=2&_limit=20', 'last']),
    );
    assert.equal(page('_page=1&_limit=30', pageParam).link, '');
  });

  it('_page wins over _start and _end', () => {
    assert.deepEqual(page('_page=2&_limit=5&_start=0&_end=1').ids, range(6, 10));
  });

  it('an unreadable _limit with _page means 10 per page', () => {
    assert.deepEqual(page('_page=2&_limit=abc').ids, range(11, 20));
    assert.deepEqual(page('_page=2&_limit=0').ids, range(11, 20));
    assert.deepEqual(page('_page=2&_limit=2.5', pageParam).ids, range(11, 20));
  });
});

describe('json-query paginate: _start, _end, _limit', () => {
  it('_start and _end slice as Array.slice, with the total', () => {
    assert.deepEqual(page('_start=2&_end=5'), { ids: [3, 4, 5], total: 25, link: undefined });
    assert.deepEqual(page('_end=3').ids, [1, 2, 3]);
    assert.deepEqual(page('_start=-2&_end=25').ids, [24, 25]);
    assert.deepEqual(page('_start=5&_end=-18').ids, [6, 7]);
  });

  it('_start and _limit take _limit items from _start', () => {
    assert.deepEqual(page('_start=20&_limit=3'), { ids: [21, 22, 23], total: 25, link: undefined });
    assert.deepEqual(page('_limit=2').ids, [1, 2]);
    assert.deepEqual(page('_start=24&_limit=5').ids, [25]);
  });

  it('_end wins over _limit', () => {
    assert.deepEqual(page('_start=1&_end=2&_limit=5').ids, [2]);
  });

  it('_start alone does not slice (no total)', () => {
    assert.deepEqual(page('_start=20'), { ids: range(1, 25), total: undefined, link: undefined });
  });

  it('json-server reads with parseInt: _limit=abc and _end=abc give nothing, _limit=2.5 takes 2, _limit=0 none', () => {
    assert.deepEqual(page('_limit=abc'), { ids: [], total: 25, link: undefined });
    assert.deepEqual(page('_end=abc'), { ids: [], total: 25, link: undefined });
    assert.deepEqual(page('_limit=2.5').ids, [1, 2]);
    assert.deepEqual(page('_limit=0'), { ids: [], total: 25, link: undefined });
    assert.deepEqual(page('_start=abc&_end=2').ids, [1, 2]);
    assert.deepEqual(page('_start=3x&_limit=1x').ids, [4]);
  });

  it('whole ignores what is not a whole number (an integer for _start and _end)', () => {
    assert.deepEqual(page('_limit=abc', pageParam), { ids: range(1, 25), total: undefined, link: undefined });
    assert.deepEqual(page('_limit=2.5', pageParam).total, undefined);
    assert.deepEqual(page('_start=3x&_limit=2', pageParam).ids, [1, 2]);
    assert.deepEqual(page('_start=-2&_end=abc', pageParam).total, undefined);
    assert.deepEqual(page('_start=-2&_end=-1', pageParam).ids, [24]);
    assert.deepEqual(page('_limit= 3 ', pageParam).ids, [1, 2, 3]);
  });

  it('the first of repeated values counts', () => {
    assert.deepEqual(page('_limit=2&_limit=5').ids, [1, 2]);
    assert.deepEqual(page('_page=3&_page=1&_limit=10').ids, range(21, 25));
  });

  it('the total counts the items given (after filtering), not more', () => {
    assert.deepEqual(page('_page=1&_limit=2', jsonServer, items.slice(0, 3)), {
      ids: [1, 2],
      total: 3,
      link: '<http://h/items?_page=1&_limit=2>; rel="first", <http://h/items?_page=2&_limit=2>; rel="next", <http://h/items?_page=2&_limit=2>; rel="last"',
    });
  });
});
