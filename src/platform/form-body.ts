/** How deep brackets may nest, as PHP's default max_input_nesting_level (deeper keys are dropped, as PHP drops them). */
const MAX_DEPTH = 64;

type Form = Record<string, unknown>;

/** `a[b][]` → ['a', 'b', ''], or undefined when the brackets are not well formed (the key is then taken as is). */
function pathOf(key: string): string[] | undefined {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return undefined;
  const path = [key.slice(0, open)];
  const rest = key.slice(open);
  const segment = /\[([^[\]]*)\]/y;
  let at = 0;
  while (at < rest.length) {
    segment.lastIndex = at;
    const match = segment.exec(rest);
    if (!match) return undefined;
    path.push(match[1] as string);
    at = segment.lastIndex;
  }
  return path;
}

/** Containers keyed 0, 1, 2… (`a[]=…`, `a[0]=…`) are lists, as json_encode shows such PHP arrays; others are maps. */
function finish(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const map = value as Form;
  const keys = Object.keys(map);
  for (const key of keys) map[key] = finish(map[key]);
  return keys.every((key, i) => key === String(i)) ? Object.values(map) : map;
}

/** Names that would reach an object's prototype: never a field. */
const prototypeKeys = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * An `application/x-www-form-urlencoded` body as fields. With `brackets` (WordPress), as PHP reads `$_POST`:
 * `a[]=1&a[]=2` is a list, `a[k]=v` a map (nested as deep as the brackets go), so clients that send WordPress-style
 * forms (`roles[]=editor`, `title[raw]=…`) are understood. Without, flat, as Express's `urlencoded({ extended:
 * false })` reads it (json-server): `a[]` is just a name. Either way a plain key given twice becomes a list
 * (`tags=1&tags=2`), and no key reaches a prototype.
 */
export function parseFormBody(body: string, { brackets = true }: { brackets?: boolean } = {}): Form {
  const out: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = brackets ? pathOf(key) : undefined;
    if (!path) {
      if (prototypeKeys.has(key)) continue;
      const existing = out[key];
      out[key] = existing === undefined ? value : ([] as unknown[]).concat(existing, value);
      continue;
    }
    if (path.length > MAX_DEPTH + 1 || path.some((segment) => prototypeKeys.has(segment))) continue;
    let container = out;
    path.forEach((segment, i) => {
      // `[]` appends at the next index of this container.
      const name = segment === '' ? String(Object.keys(container).length) : segment;
      if (i === path.length - 1) {
        container[name] = value;
        return;
      }
      const existing = container[name];
      if (existing === null || typeof existing !== 'object') container[name] = {};
      container = container[name] as Form;
    });
  }
  for (const key of Object.keys(out)) out[key] = finish(out[key]);
  return out;
}
