// PHP's serialize() and unserialize() for the values a widget instance holds (JSON's), because WordPress answers
// an instance as base64 of its serialized form with a hash of those bytes, and clients send both back unchanged.

export type PhpValue = null | boolean | number | string | PhpValue[] | { [key: string]: PhpValue };

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** An array key as PHP stores it: a decimal integer string becomes an integer key. */
function key(name: string): string {
  return /^(0|-?[1-9]\d*)$/.test(name) && Number.isSafeInteger(Number(name))
    ? `i:${name};`
    : `s:${bytes(name)}:"${name}";`;
}

export function serialize(value: PhpValue | undefined): string {
  if (value === null || value === undefined) return 'N;';
  if (typeof value === 'boolean') return `b:${value ? 1 : 0};`;
  if (typeof value === 'number')
    return Number.isInteger(value) ? `i:${value};` : `d:${JSON.stringify(value)};`;
  if (typeof value === 'string') return `s:${bytes(value)}:"${value}";`;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  return `a:${entries.length}:{${entries.map(([name, item]) => key(name) + serialize(item)).join('')}}`;
}

/** The value serialize() wrote, or undefined for anything else (PHP's unserialize answers false then). */
export function unserialize(text: string): PhpValue | undefined {
  const data = Buffer.from(text, 'utf8');
  let at = 0;
  const until = (end: string) => {
    const stop = data.indexOf(end, at);
    if (stop < 0) throw new Error('truncated');
    const part = data.subarray(at, stop).toString('utf8');
    at = stop + 1;
    return part;
  };
  const value = (): PhpValue => {
    const type = String.fromCharCode(data[at] ?? 0);
    at += 2;
    if (type === 'N') return null;
    if (type === 'b') return until(';') === '1';
    if (type === 'i' || type === 'd') {
      const number = Number(until(';'));
      if (Number.isNaN(number)) throw new Error('not a number');
      return number;
    }
    if (type === 's') {
      const length = Number(until(':'));
      const string = data.subarray(at + 1, at + 1 + length).toString('utf8');
      at += length + 3;
      return string;
    }
    if (type === 'a') {
      const count = Number(until(':'));
      at += 1;
      const out: Record<string, PhpValue> = {};
      for (let i = 0; i < count; i++) {
        const name = value();
        out[String(name)] = value();
      }
      at += 1;
      const keys = Object.keys(out);
      return keys.every((k, i) => k === String(i)) ? Object.values(out) : out;
    }
    throw new Error(`unknown type ${type}`);
  };
  try {
    const result = value();
    return at === data.length ? result : undefined;
  } catch {
    return undefined;
  }
}
