import secureJson from 'secure-json-parse';
import { HttpError } from './errors.js';

/**
 * How deeply a request body may nest arrays and objects. Real API payloads stay under ten levels; without a limit a
 * few kilobytes of `[[[[…` overflow the stack in JSON.parse, in validation or in serialization.
 */
export const MAX_JSON_DEPTH = 64;

/** A request body the platform refuses; services render it in their own error shape (status 400). */
export class BodyError extends HttpError {
  override name = 'BodyError';
  constructor(
    message: string,
    /** `FST_ERR_CTP_INVALID_JSON_BODY` for text that is not JSON, so services keep their "not JSON" wording. */
    override code: string,
  ) {
    super(400);
    this.message = message;
  }
}

/** The deepest nesting of `[`/`{` outside strings, stopping as soon as `limit` is passed: one linear pass. */
export function exceedsDepth(text: string, limit = MAX_JSON_DEPTH): boolean {
  // A body nested deeper than the limit holds at least that many brackets, so short bodies need no scan.
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/**
 * Parses a JSON request body: at most MAX_JSON_DEPTH levels, and no `__proto__` or `constructor.prototype` keys
 * (which would reach object prototypes further on). Throws BodyError saying which rule was broken.
 */
export function parseJsonBody(text: string): unknown {
  if (exceedsDepth(text)) {
    throw new BodyError(
      `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`,
      'BACKLOT_JSON_TOO_DEEP',
    );
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /prototype/.test(error.message)) {
      throw new BodyError(
        'The JSON body has a "__proto__" or "constructor.prototype" key, which is refused',
        'BACKLOT_JSON_FORBIDDEN_KEY',
      );
    }
    throw new BodyError('The request body is not valid JSON', 'FST_ERR_CTP_INVALID_JSON_BODY');
  }
}

/** For parsers that must not fail (posts' fake writes): the parsed body, or `fallback` when it is refused. */
export function parseJsonOr(text: string, fallback: unknown): unknown {
  try {
    return parseJsonBody(text);
  } catch {
    return fallback;
  }
}
