import { first, type Query } from './filter.js';

/**
 * How `_page`, `_limit`, `_start` and `_end` are read. `json-server`: as it does, with `parseInt` (`_limit=abc`
 * gives `[]`, `_limit=2.5` means 2, an empty value is absent). `whole`: `_limit` must be a whole number and
 * `_start`/`_end` integers, anything else is ignored; `_page` counts even when empty.
 */
export type NumberReading = 'json-server' | 'whole';

/**
 * How the `Link` URLs are made. `json-server`: its text replacement of the first `page=<current>` in the URL, and
 * a header (maybe empty) on every `_page` answer. `page-param`: the `_page` parameter itself is rewritten; the
 * header is on every `_page` answer too, empty when there is nothing to link (as json-server sends it).
 */
export type LinkStyle = 'json-server' | 'page-param';

interface Slice {
  page?: number;
  perPage: number;
  start: number;
  /** May be NaN (json-server's `parseInt`), which slices to nothing. */
  end?: number;
  limit?: number;
}

const wholeNumber = /^\s*\d+\s*$/;
const integer = /^\s*-?\d+\s*$/;

function readSlice(query: Query, reading: NumberReading): Slice {
  const page = first(query._page);
  const limit = first(query._limit);
  const start = first(query._start);
  const end = first(query._end);
  const firstPage = (text: string) => Math.max(Number.parseInt(text, 10) || 1, 1);
  if (reading === 'json-server') {
    return {
      page: page ? firstPage(page) : undefined,
      perPage: Number.parseInt(limit ?? '', 10) || 10,
      start: Number.parseInt(start ?? '', 10) || 0,
      end: end ? Number.parseInt(end, 10) : undefined,
      limit: limit ? Number.parseInt(limit, 10) : undefined,
    };
  }
  const whole = limit !== undefined && wholeNumber.test(limit) ? Number(limit) : undefined;
  return {
    page: page === undefined ? undefined : firstPage(page),
    perPage: whole || 10,
    start: start !== undefined && integer.test(start) ? Number(start) : 0,
    end: end !== undefined && integer.test(end) ? Number(end) : undefined,
    limit: whole,
  };
}

interface Pages {
  current?: number;
  first?: number;
  prev?: number;
  next?: number;
  last?: number;
}

/** json-server's `getPage`: the page's items and, when they are not everything, the pages around it. */
function getPage(items: unknown[], page: number, perPage: number): { items: unknown[]; pages: Pages } {
  const start = (page - 1) * perPage;
  const end = page * perPage;
  const slice = items.slice(start, end);
  const pages: Pages = {};
  if (slice.length === 0) return { items: slice, pages };
  if (page > 1) pages.prev = page - 1;
  if (end < items.length) pages.next = page + 1;
  if (slice.length !== items.length) {
    pages.current = page;
    pages.first = 1;
    pages.last = Math.ceil(items.length / perPage);
  }
  return { items: slice, pages };
}

function decodeKey(pair: string) {
  const key = pair.split('=')[0];
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/** `Link: <…_page=1>; rel="first", …` in Express's order: first, prev, next, last. */
function linkHeader(url: string, pages: Pages, style: LinkStyle): string {
  const rels = (['first', 'prev', 'next', 'last'] as const).filter((rel) => pages[rel]);
  if (style === 'json-server') {
    return rels
      .map((rel) => `<${url.replace(`page=${pages.current}`, `page=${pages[rel]}`)}>; rel="${rel}"`)
      .join(', ');
  }
  if (rels.length === 0) return '';
  const [path = '', search = ''] = url.split(/\?(.*)/s);
  const pageUrl = (page: number) => {
    const pairs = search
      .split('&')
      .filter((pair) => pair !== '')
      .map((pair) => (decodeKey(pair) === '_page' ? `_page=${page}` : pair));
    return `${path}?${pairs.join('&')}`;
  };
  return rels.map((rel) => `<${pageUrl(pages[rel] as number)}>; rel="${rel}"`).join(', ');
}

export interface Sliced {
  items: unknown[];
  /** Set when the request sliced (`_page`, `_limit` or `_end`): the number of items before slicing. */
  totalCount?: number;
  /** The `Link` header for `_page` requests. */
  link?: string;
}

export interface SliceOptions {
  numbers: NumberReading;
  links: LinkStyle;
}

/** `_page` (with `_limit` per page, default 10), else `_start`+`_end`, else `_start`+`_limit`; `url` is the request's own. */
export function slice(items: unknown[], query: Query, url: string, options: SliceOptions): Sliced {
  const { page, perPage, start, end, limit } = readSlice(query, options.numbers);
  if (page === undefined && end === undefined && limit === undefined) return { items };
  const result: Sliced = { items, totalCount: items.length };
  if (page !== undefined) {
    const paged = getPage(items, page, perPage);
    result.items = paged.items;
    result.link = linkHeader(url, paged.pages, options.links);
  } else if (end !== undefined) {
    result.items = items.slice(start, end);
  } else if (limit !== undefined) {
    result.items = items.slice(start, start + limit);
  }
  return result;
}
