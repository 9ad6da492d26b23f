import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Strict request validation for this service: the platform's Ajv coerces types (123 would pass as "123"),
 * but a non-string username or password must be refused, as the issue requires.
 */
export const strictValidator: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const checker = TypeCompiler.Compile(schema);
  return (value) => {
    if (checker.Check(value)) return { value };
    const first = checker.Errors(value).First();
    return { error: new Error(describe(httpPart ?? 'request', first)) };
  };
};

function describe(part: string, error: ValueError | undefined): string {
  if (!error) return `${part} is not valid`;
  const field = error.path.replace(/^\//, '').replaceAll('/', '.');
  if (!field) return part === 'body' ? 'body must be a JSON object' : `${part} is not valid`;
  if (error.value === undefined) return `${field} is required`;
  switch (error.type) {
    case ValueErrorType.String:
      return `${field} must be a string`;
    case ValueErrorType.StringMinLength:
      return `${field} must not be empty`;
    case ValueErrorType.StringMaxLength:
      return `${field} must be at most ${error.schema.maxLength} characters`;
    case ValueErrorType.StringPattern:
      return `${field} must not contain NUL characters`;
    default:
      return `${field}: ${error.message.toLowerCase()}`;
  }
}
