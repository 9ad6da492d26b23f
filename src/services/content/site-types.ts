/**
 * The post types, post statuses and taxonomies backlot serves, as core registers them (WordPress 6.1's fields).
 * Block-editor types not served (wp_template, wp_template_part…) are not listed. `capability` names the
 * family of primitives (`edit_posts`, `edit_pages`); `theme` maps them all to edit_theme_options (menus,
 * navigation menus); `blocks` is wp_block's mix (see site-routes.ts).
 */

export const postTypes = {
  post: {
    name: 'Posts',
    singular: 'Post',
    hierarchical: false,
    icon: 'dashicons-admin-post',
    taxonomies: ['category', 'post_tag'],
    rest_base: 'posts',
    supports: [
      'title',
      'editor',
      'author',
      'thumbnail',
      'excerpt',
      'trackbacks',
      'custom-fields',
      'comments',
      'revisions',
      'post-formats',
    ],
    capability: 'posts',
  },
  page: {
    name: 'Pages',
    singular: 'Page',
    hierarchical: true,
    icon: 'dashicons-admin-page',
    taxonomies: [],
    rest_base: 'pages',
    supports: [
      'title',
      'editor',
      'author',
      'thumbnail',
      'page-attributes',
      'custom-fields',
      'comments',
      'revisions',
    ],
    capability: 'pages',
  },
  attachment: {
    name: 'Media',
    singular: 'Media',
    hierarchical: false,
    icon: 'dashicons-admin-media',
    taxonomies: [],
    rest_base: 'media',
    supports: ['title', 'author', 'comments'],
    capability: 'posts',
  },
  nav_menu_item: {
    name: 'Navigation Menu Items',
    singular: 'Navigation Menu Item',
    hierarchical: false,
    icon: null,
    taxonomies: ['nav_menu'],
    rest_base: 'menu-items',
    supports: ['title', 'editor'],
    capability: 'theme',
  },
  wp_block: {
    name: 'Reusable blocks',
    singular: 'Reusable block',
    hierarchical: false,
    icon: null,
    taxonomies: [],
    rest_base: 'blocks',
    supports: ['title', 'editor', 'revisions'],
    capability: 'blocks',
  },
  wp_navigation: {
    name: 'Navigation Menus',
    singular: 'Navigation Menu',
    description: 'Navigation menus that can be inserted into your site.',
    hierarchical: false,
    icon: null,
    taxonomies: [],
    rest_base: 'navigation',
    supports: ['title', 'editor', 'revisions'],
    capability: 'theme',
  },
} as const;
export type PostTypeName = keyof typeof postTypes;

/** Non-internal statuses plus trash, as `/statuses` lists them. */
export const postStatusObjects = {
  publish: {
    name: 'Published',
    public: true,
    protected: false,
    private: false,
    queryable: true,
    show_in_list: true,
    date_floating: false,
  },
  future: {
    name: 'Scheduled',
    public: false,
    protected: true,
    private: false,
    queryable: false,
    show_in_list: true,
    date_floating: false,
  },
  draft: {
    name: 'Draft',
    public: false,
    protected: true,
    private: false,
    queryable: false,
    show_in_list: true,
    date_floating: true,
  },
  pending: {
    name: 'Pending',
    public: false,
    protected: true,
    private: false,
    queryable: false,
    show_in_list: true,
    date_floating: true,
  },
  private: {
    name: 'Private',
    public: false,
    protected: false,
    private: true,
    queryable: false,
    show_in_list: true,
    date_floating: false,
  },
  trash: {
    name: 'Trash',
    public: false,
    protected: false,
    private: false,
    queryable: false,
    show_in_list: false,
    date_floating: false,
  },
} as const;

export const taxonomyObjects = {
  category: {
    name: 'Categories',
    singular: 'Category',
    hierarchical: true,
    rest_base: 'categories',
    show_cloud: true,
  },
  post_tag: {
    name: 'Tags',
    singular: 'Tag',
    hierarchical: false,
    rest_base: 'tags',
    show_cloud: true,
  },
  nav_menu: {
    name: 'Navigation Menus',
    singular: 'Navigation Menu',
    hierarchical: false,
    rest_base: 'menus',
    show_cloud: false,
  },
} as const;
export type TaxonomyName = keyof typeof taxonomyObjects;
