import { termResource } from '../terms/index.js';

/** `/wp/v2/tags`: core's `post_tag` taxonomy. Anyone who may edit posts creates tags (assign_terms). */
export const tagsResource = termResource({
  taxonomy: 'post_tag',
  rest: 'tags',
  title: 'tag',
  hierarchical: false,
  createCapability: 'edit_posts',
  manageCapability: 'manage_categories',
});
