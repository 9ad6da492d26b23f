import { RE2JS, RE2JSException } from 're2js';
import { QueryError } from './errors.js';

/** What becomes of a `_like` value RE2 cannot run: a 400 (`QueryError`), or a case-insensitive plain-text match. */
export type InvalidPattern = 'reject' | 'literal';

/** Longer patterns are refused before compiling (compiling costs time in proportion to the pattern). */
export const maxPatternLength = 256;
/** Matching costs up to (compiled size × text length), so larger compiled patterns are refused too. */
export const maxPatternProgram = 1000;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The compiled pattern, or why it cannot be used. */
function compile(source: string): RE2JS | string {
  if (source.length > maxPatternLength) return `pattern longer than ${maxPatternLength} characters`;
  try {
    const pattern = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
    const size = pattern.programSize();
    return size <= maxPatternProgram
      ? pattern
      : `pattern too complex (compiled size ${size}, at most ${maxPatternProgram})`;
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const reason = error.message.replace(/^error parsing regexp: /, '').replace('`(?i)', '`');
    return `not a valid regular expression (${reason}; RE2 syntax: no backreferences or lookaround)`;
  }
}

/** One RE2 program for all the patterns, so each text is scanned once however many patterns were given. */
function anyOf(patterns: RE2JS[]): (text: string) => boolean {
  if (patterns.length === 1) return (text) => patterns[0].test(text);
  try {
    const combined = RE2JS.compile(
      patterns.map((pattern) => `(?:${pattern.pattern()})`).join('|'),
      RE2JS.CASE_INSENSITIVE,
    );
    return (text) => combined.test(text);
  } catch (error) {
    // Patterns that only clash when joined (the same group name twice) are run one by one.
    if (!(error instanceof RE2JSException)) throw error;
    return (text) => patterns.some((pattern) => pattern.test(text));
  }
}

/**
 * json-server's `new RegExp(value, 'i').test(field)` for each value of one `_like` parameter (any may match), run
 * by RE2 (re2js): matching takes time linear in the text whatever the pattern, so `(a+)+$` cannot stall the
 * process. RE2 has no backreferences and no lookaround.
 */
export function likeMatcher(
  key: string,
  sources: string[],
  invalid: InvalidPattern,
): (text: string) => boolean {
  const patterns: RE2JS[] = [];
  const literals: RegExp[] = [];
  for (const source of sources) {
    const compiled = compile(source);
    if (typeof compiled !== 'string') patterns.push(compiled);
    else if (invalid === 'literal') literals.push(new RegExp(escapeRegExp(source), 'i'));
    else {
      throw new QueryError(`${key}: ${compiled}: ${source}`);
    }
  }
  const matches = patterns.length > 0 ? anyOf(patterns) : () => false;
  // A literal pattern has nothing to backtrack over, so the built-in engine is safe for it.
  if (literals.length === 0) return matches;
  return (text) => matches(text) || literals.some((literal) => literal.test(text));
}
