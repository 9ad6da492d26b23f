/**
 * Core's display filters for the common cases: `wptexturize` (curly quotes, dashes, ellipses, bare `&` as
 * `&#038;`) on text outside tags and outside code/pre/kbd/style/script/tt, and block delimiters removed as
 * `do_blocks` does.
 */

const skipped = /^<(\/)?(code|pre|kbd|style|script|tt)\b/i;
const blockComment = /<!--\s*\/?wp:[\s\S]*?-->/g;

export const hasBlocks = (text: string) => text.includes('<!-- wp:');
export const stripBlockComments = (text: string) => text.replace(blockComment, '');

const statics: [RegExp, string][] = [
  [/---/g, '&#8212;'],
  [/ -- /g, ' &#8212; '],
  [/--/g, '&#8211;'],
  [/ - /g, ' &#8211; '],
  [/\.\.\./g, '&#8230;'],
  [/``/g, '&#8220;'],
  [/''/g, '&#8221;'],
  [/ \(tm\)/gi, ' &#8482;'],
];

/** Anything wptexturize would change; most text has none, and is returned untouched (lists render fast). */
const trigger = /\.\.\.|--| - |``|''|\(tm\)|['"&]/i;

function texturizeText(text: string): string {
  if (!trigger.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of statics) out = out.replace(pattern, replacement);
  if (out.includes("'"))
    // Apostrophes inside words, then opening and closing single quotes.
    out = out
      .replace(/(\w)'(\w)/g, '$1&#8217;$2')
      .replace(/(^|[\s([{"\-\u00a0>]|&#8211;|&#8212;)'/g, '$1&#8216;')
      .replace(/'/g, '&#8217;');
  if (out.includes('"'))
    out = out.replace(/(^|[\s([{\-\u00a0>]|&#8211;|&#8212;)"/g, '$1&#8220;').replace(/"/g, '&#8221;');
  return out.includes('&') ? out.replace(/&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi, '&#038;') : out;
}

/** wptexturize: only text between tags changes; tags, comments and code-like elements stay as they are. */
export function texturize(html: string): string {
  if (!trigger.test(html)) return html;
  const parts = html.split(/(<!--[\s\S]*?-->|<[^>]*>)/);
  let depth = 0;
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (i % 2 === 1) {
      const m = skipped.exec(part);
      if (m) depth += m[1] ? -1 : 1;
      if (depth < 0) depth = 0;
      out += part;
    } else out += depth > 0 ? part : texturizeText(part);
  }
  return out;
}
