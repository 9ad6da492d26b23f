import type { Static } from '@sinclair/typebox';
import { badRequest } from '../../errors.js';
import type { ProjectBody } from './schemas.js';
import type { ProjectFields, ProjectRow } from './store.js';

type Body = Static<typeof ProjectBody>;

/** The purposes the provider offers; any other is kept as `Other: <text>`, as its document says. */
const purposes = [
  'Just trying out DigitalOcean',
  'Class project / Educational purposes',
  'Website or blog',
  'Web Application',
  'Service or API',
  'Mobile Application',
  'Machine learning / AI / Data processing',
  'IoT',
  'Operational / Developer tooling',
];
const environments = ['Development', 'Staging', 'Production'];
const required = ['name', 'description', 'purpose', 'environment', 'is_default'] as const;

/**
 * The project a create (`mode` 'create': name and purpose required), a PUT ('replace': every field required) or
 * a PATCH ('patch': at least one field) asks for, over the stored one.
 */
export function checkProject(
  body: Body,
  mode: 'create' | 'replace' | 'patch',
  stored?: ProjectRow,
): ProjectFields {
  if (mode === 'create') {
    for (const field of ['name', 'purpose'] as const)
      if (body[field] === undefined) throw badRequest(`${field} is required.`);
  }
  if (mode === 'replace') {
    for (const field of required) if (body[field] === undefined) throw badRequest(`${field} is required.`);
  }
  if (mode === 'patch' && required.every((field) => body[field] === undefined))
    throw badRequest('At least one of name, description, purpose, environment and is_default is required.');
  const name = (body.name ?? stored?.name ?? '').trim();
  if (name.length === 0 || name.length > 175) throw badRequest('name must be 1 to 175 characters.');
  const description = body.description ?? stored?.description ?? '';
  if (description.length > 255) throw badRequest('description may be at most 255 characters.');
  let purpose = body.purpose ?? stored?.purpose ?? '';
  if (purpose.length === 0 || purpose.length > 255) throw badRequest('purpose must be 1 to 255 characters.');
  if (!purposes.includes(purpose) && !purpose.startsWith('Other: ')) purpose = `Other: ${purpose}`;
  const environment = body.environment === undefined ? (stored?.environment ?? null) : body.environment;
  if (environment !== null && !environments.includes(environment))
    throw badRequest('environment must be one of Development, Staging or Production.');
  if (body.is_default === false && stored?.is_default)
    throw badRequest('The default project cannot be unset; make another project the default.');
  return {
    name,
    description,
    purpose,
    environment,
    isDefault: body.is_default ?? stored?.is_default ?? false,
  };
}
