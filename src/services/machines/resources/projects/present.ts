import { isoSeconds } from '../../time.js';
import { accountUuid } from '../account/routes.js';
import type { ProjectRow } from './store.js';

// The one account's number, as the provider shows a project's owner.
const OWNER_ID = 258_992;

export const presentProject = (p: ProjectRow) => ({
  id: p.id,
  owner_uuid: accountUuid,
  owner_id: OWNER_ID,
  name: p.name,
  description: p.description,
  purpose: p.purpose,
  ...(p.environment === null ? {} : { environment: p.environment }),
  is_default: p.is_default,
  created_at: isoSeconds(new Date(p.created_at)),
  updated_at: isoSeconds(new Date(p.updated_at)),
});
