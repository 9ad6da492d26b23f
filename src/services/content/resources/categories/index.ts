import { termResource } from '../terms/index.js';

/**
 * `/wp/v2/categories`: core's hierarchical `category` taxonomy. Creating, editing and deleting need
 * edit_terms/delete_terms (manage_categories); the default category (1, "Uncategorized") is never deleted.
 */
export const categoriesResource = termResource({
  taxonomy: 'category',
  rest: 'categories',
  title: 'category',
  hierarchical: true,
  createCapability: 'manage_categories',
  manageCapability: 'manage_categories',
  defaultTerm: 1,
});
