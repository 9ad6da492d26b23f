import { fieldAt, type PathSyntax } from './fields.js';

/**
 * Sort keys used per request; later ones are ignored. They only break ties left by the first ten, and each one
 * costs a pass over every comparison (1,500 keys held the process for seconds).
 */
export const maxSortKeys = 10;

export interface SortKey {
  path: string;
  descending: boolean;
}

/**
 * `_sort=a,b` with `_order=asc,desc`. A key repeated later is dropped with its order (it could only compare values
 * already found equal). `trim` ignores spaces around keys and orders.
 */
export function sortKeys(sort: string, order: string, trim: boolean): SortKey[] {
  const paths = sort.split(',');
  const orders = order.split(',');
  const keys: SortKey[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < paths.length && keys.length < maxSortKeys; i++) {
    const path = trim ? paths[i].trim() : paths[i];
    if (seen.has(path)) continue;
    seen.add(path);
    const direction = orders[i] ?? '';
    keys.push({ path, descending: (trim ? direction.trim() : direction).toLowerCase() === 'desc' });
  }
  return keys;
}

const isNaNValue = (value: unknown) => typeof value === 'number' && Number.isNaN(value);

/** lodash's `compareAscending`: null, undefined and NaN sort after everything else. */
function compareAscending(value: unknown, other: unknown): number {
  if (value === other) return 0;
  const valDefined = value !== undefined;
  const valNull = value === null;
  const valReflexive = !isNaNValue(value);
  const othDefined = other !== undefined;
  const othNull = other === null;
  const othReflexive = !isNaNValue(other);
  if (
    (!othNull && (value as number) > (other as number)) ||
    (valNull && othDefined && othReflexive) ||
    (!valDefined && othReflexive) ||
    !valReflexive
  ) {
    return 1;
  }
  if (
    (!valNull && (value as number) < (other as number)) ||
    (othNull && valDefined && valReflexive) ||
    (!othDefined && valReflexive) ||
    !othReflexive
  ) {
    return -1;
  }
  return 0;
}

/** lodash's `orderBy`: a stable sort (ties keep their order), each key ascending unless `desc`. */
export function sortItems(items: unknown[], keys: SortKey[], paths: PathSyntax): unknown[] {
  const fields = keys.map((key) => fieldAt(key.path, paths));
  const rows = items.map((item, index) => ({ item, index, values: fields.map((field) => field.get(item)) }));
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const result = compareAscending(a.values[i], b.values[i]);
      if (result !== 0) return keys[i].descending ? -result : result;
    }
    return a.index - b.index;
  });
  return rows.map((row) => row.item);
}
