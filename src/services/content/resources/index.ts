import { blockAutosaves, navigationAutosaves, pageAutosaves, postAutosaves } from './autosaves/index.js';
import { batchResource } from './batch/index.js';
import { blockTypesResource } from './block-types/index.js';
import { categoriesResource } from './categories/index.js';
import { commentsResource } from './comments/index.js';
import type { Resource } from './contract.js';
import { menuItemsResource } from './menu-items/index.js';
import { menuLocationsResource } from './menu-locations/index.js';
import { menusResource } from './menus/index.js';
import { oembedResource } from './oembed/index.js';
import { pluginsResource } from './plugins/index.js';
import { sidebarsResource } from './sidebars/index.js';
import { tagsResource } from './tags/index.js';
import { themesResource } from './themes/index.js';
import { userResources } from './users/index.js';
import { widgetTypesResource } from './widget-types/index.js';
import { widgetsResource } from './widgets/index.js';

/** content's resources built on the contract (contract.ts): each one folder and one line here. */
export const resources: readonly Resource[] = [
  commentsResource,
  categoriesResource,
  tagsResource,
  menuItemsResource,
  menusResource,
  menuLocationsResource,
  postAutosaves,
  pageAutosaves,
  blockAutosaves,
  navigationAutosaves,
  blockTypesResource,
  batchResource,
  themesResource,
  pluginsResource,
  oembedResource,
  ...userResources,
  sidebarsResource,
  widgetsResource,
  widgetTypesResource,
];
