import { blockAutosaves, navigationAutosaves, pageAutosaves, postAutosaves } from './autosaves/index.js';
import { blockTypesResource } from './block-types/index.js';
import type { Resource } from './contract.js';
import { menuItemsResource } from './menu-items/index.js';
import { menuLocationsResource } from './menu-locations/index.js';
import { menusResource } from './menus/index.js';
import { tagsResource } from './tags/index.js';

/** content's resources built on the contract (contract.ts): each one folder and one line here. */
export const resources: readonly Resource[] = [
  tagsResource,
  menuItemsResource,
  menusResource,
  menuLocationsResource,
  postAutosaves,
  pageAutosaves,
  blockAutosaves,
  navigationAutosaves,
  blockTypesResource,
];
