import { checkpointGroups } from './checkpoint-group.js';
import { databaseGroups } from './database-groups.js';
import type { BenchGroup } from './lib/context.js';
import { postsListGroups } from './posts-list-groups.js';
import { profilesGroups } from './profiles-group.js';
import { queryGroups } from './query-groups.js';
import { soakGroups } from './soak-group.js';
import { startupGroups } from './startup-group.js';

/** Every benchmark group by name, in the order a full run takes them (groups import only lib/). */
export const groups: Record<string, BenchGroup> = {
  ...postsListGroups,
  ...profilesGroups,
  ...databaseGroups,
  ...queryGroups,
  ...startupGroups,
  ...soakGroups,
  ...checkpointGroups,
};
