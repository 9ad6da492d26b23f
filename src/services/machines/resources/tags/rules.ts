import { Type } from '@sinclair/typebox';
import { HttpError } from '../../../../platform/errors.js';

export const tagPattern = /^[a-zA-Z0-9_:-]{1,255}$/;

/**
 * An invalid tag name in `POST /v2/tags`: the provider answers 400 in its tags service's shape (`error`, `messages`,
 * `root_causes`), here alongside this API's `id` and `message`.
 */
export function invalidTagName(name: string): HttpError {
  const error = `Error validating resource tag: "tag-name \\"${name}\\" contains invalid characters"`;
  return new HttpError(400, {
    id: 'bad_request',
    message: error,
    error,
    messages: null,
    root_causes: [`rpc error: code = InvalidArgument desc = ${error}`],
  });
}

export const TagBadRequest = Type.Object({
  id: Type.String(),
  message: Type.String(),
  request_id: Type.String(),
  // Optional: the platform's own 400s (a body that is not JSON) have only id and message.
  error: Type.Optional(Type.String()),
  messages: Type.Optional(Type.Null()),
  root_causes: Type.Optional(Type.Array(Type.String())),
});
