import type { FastifySchemaValidationError } from 'fastify';

/** This service's wording of a schema violation (`username must be a string`, `password is required`). */
export function describeValidation(part: string, error: FastifySchemaValidationError | undefined): string {
  if (!error) return `${part} is not valid`;
  const params = error.params as { missingProperty?: string; limit?: number; type?: string };
  const missing = error.keyword === 'required';
  const path = missing ? `${error.instancePath}/${params.missingProperty}` : error.instancePath;
  const field = path.replace(/^\//, '').replaceAll('/', '.');
  if (!field) return part === 'body' ? 'body must be a JSON object' : `${part} is not valid`;
  if (missing) return `${field} is required`;
  if (error.keyword === 'type' && params.type === 'string') return `${field} must be a string`;
  switch (error.keyword) {
    case 'minLength':
      return `${field} must not be empty`;
    case 'maxLength':
      return `${field} must be at most ${params.limit} characters`;
    case 'pattern':
      return `${field} must not contain NUL characters`;
    default:
      return `${field}: ${(error.message ?? 'is not valid').toLowerCase()}`;
  }
}
