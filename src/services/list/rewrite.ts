import { RE2JS, RE2JSException } from 're2js';

/** A routes file is unusable: the message names the rule and what is wrong. */
export class RoutesError extends Error {
  override name = 'RoutesError';
}

/** One rule of a routes file, `"/api/*": "/$1"`, compiled. */
export interface RewriteRule {
  from: string;
  to: string;
  pattern: RE2JS;
  /** Group number of each `:name` of `from` (`*` groups are `$1`, `$2`… by position, as json-server numbers them). */
  names: Map<string, number>;
}

const literal = (text: string) => text.replace(/[.+*?=^!:${}()[\]|/\\]/g, '\\$&');

// path-to-regexp 1.x's tokens, as express-urlrewrite (json-server's rewriter) reads a rule: an escaped character,
// an optional `/` or `.` prefix followed by `:name` with an optional `?`, `*` or `+`, or a `*`.
const token = /\\(.)|([/.])?(?::(\w+)([?*+])?|(\*))/g;

/**
 * Compiles `from` as path-to-regexp 1.x did for json-server's rewriter: case-insensitive, against the whole URL with
 * its query string, an optional trailing `/`. Custom groups (`:id(\\d+)`) are refused: they would be arbitrary
 * regular expressions. The pattern runs on RE2, so a rule cannot stall the service on a long URL.
 */
function compileRule(from: string, to: string): RewriteRule {
  if (!from.startsWith('/')) throw new RoutesError(`"${from}": a route must start with "/"`);
  if (from.includes('(')) throw new RoutesError(`"${from}": groups such as "(\\d+)" are not supported`);
  const names = new Map<string, number>();
  let source = '';
  let index = 0;
  let groups = 0;
  for (const match of from.matchAll(token)) {
    const [whole, escaped, prefix = '', name, modifier, star] = match;
    source += literal(from.slice(index, match.index));
    index = match.index + whole.length;
    if (escaped !== undefined) {
      source += literal(escaped);
      continue;
    }
    groups++;
    if (name !== undefined) names.set(name, groups);
    const delimiter = prefix || '/';
    const part = star ? '.*' : `[^${literal(delimiter)}]+?`;
    const repeat = modifier === '*' || modifier === '+';
    const optional = modifier === '?' || modifier === '*';
    const next = from[index];
    const partial = prefix !== '' && next !== undefined && next !== prefix;
    let capture = `(?:${part})`;
    if (repeat) capture += `(?:${literal(prefix)}${capture})*`;
    source += optional
      ? partial
        ? `${literal(prefix)}(${capture})?`
        : `(?:${literal(prefix)}(${capture}))?`
      : `${literal(prefix)}(${capture})`;
  }
  source += literal(from.slice(index));
  if (source.endsWith('\\/')) source = source.slice(0, -2);
  for (const [, number, name] of to.matchAll(/\$(\d+)|:(\w+)/g)) {
    if (name !== undefined && !names.has(name))
      throw new RoutesError(`"${from}": "${to}" uses ":${name}", which "${from}" does not name`);
    if (number !== undefined && Number(number) > groups)
      throw new RoutesError(`"${from}": "${to}" uses "$${number}", but "${from}" has ${groups} group(s)`);
  }
  try {
    return { from, to, pattern: RE2JS.compile(`^${source}(?:/)?$`, RE2JS.CASE_INSENSITIVE), names };
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    throw new RoutesError(`"${from}": not a route pattern (${error.message})`);
  }
}

/** Reads a routes file's JSON: one object of `"<route>": "<destination>"` strings. */
export function compileRoutes(routes: unknown): RewriteRule[] {
  if (typeof routes !== 'object' || routes === null || Array.isArray(routes))
    throw new RoutesError('must hold one JSON object of "<route>": "<destination>"');
  return Object.entries(routes).map(([from, to]) => {
    if (typeof to !== 'string' || to === '')
      throw new RoutesError(`"${from}": the destination must be a non-empty string`);
    return compileRule(from, to);
  });
}

/**
 * Applies the rules in order, each to the URL the ones before it left, as json-server's chain of express-urlrewrite
 * middlewares did: `$1` is the first group, `:name` the named one (a group that matched nothing gives
 * "undefined", as there).
 */
export function rewriteUrl(rules: RewriteRule[], url: string): string {
  for (const rule of rules) {
    const matcher = rule.pattern.matcher(url);
    if (!matcher.matches()) continue;
    url = rule.to.replace(/\$(\d+)|:(\w+)/g, (_, number: string | undefined, name: string | undefined) =>
      String(matcher.group(name === undefined ? Number(number) : (rule.names.get(name) ?? 0)) ?? undefined),
    );
  }
  return url;
}
