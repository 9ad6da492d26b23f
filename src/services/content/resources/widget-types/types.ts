// The widget types WordPress 6.1 registers (wp_widgets_init), in the order `/wp/v2/widget-types` lists them (by
// id). Their descriptions are backlot's words (WordPress's are its own prose).

export interface WidgetType {
  id: string;
  name: string;
  description: string;
  classname: string;
}

export const widgetTypes: readonly WidgetType[] = [
  {
    id: 'archives',
    name: 'Archives',
    description: 'The site’s posts by month.',
    classname: 'widget_archive',
  },
  { id: 'block', name: 'Block', description: 'One block’s HTML.', classname: 'widget_block' },
  {
    id: 'calendar',
    name: 'Calendar',
    description: 'A month of the site’s posts as a calendar.',
    classname: 'widget_calendar',
  },
  {
    id: 'categories',
    name: 'Categories',
    description: 'The categories, as a list or a menu.',
    classname: 'widget_categories',
  },
  { id: 'custom_html', name: 'Custom HTML', description: 'Any HTML.', classname: 'widget_custom_html' },
  { id: 'media_audio', name: 'Audio', description: 'An audio player.', classname: 'widget_media_audio' },
  {
    id: 'media_gallery',
    name: 'Gallery',
    description: 'A gallery of images.',
    classname: 'widget_media_gallery',
  },
  { id: 'media_image', name: 'Image', description: 'One image.', classname: 'widget_media_image' },
  {
    id: 'media_video',
    name: 'Video',
    description: 'A video from the library or a video site.',
    classname: 'widget_media_video',
  },
  {
    id: 'meta',
    name: 'Meta',
    description: 'Links to log in, the feeds and WordPress.org.',
    classname: 'widget_meta',
  },
  {
    id: 'nav_menu',
    name: 'Navigation Menu',
    description: 'A menu of the site.',
    classname: 'widget_nav_menu',
  },
  { id: 'pages', name: 'Pages', description: 'The site’s pages.', classname: 'widget_pages' },
  {
    id: 'recent-comments',
    name: 'Recent Comments',
    description: 'The newest comments.',
    classname: 'widget_recent_comments',
  },
  {
    id: 'recent-posts',
    name: 'Recent Posts',
    description: 'The newest posts.',
    classname: 'widget_recent_entries',
  },
  { id: 'rss', name: 'RSS', description: 'Items of an RSS or Atom feed.', classname: 'widget_rss' },
  { id: 'search', name: 'Search', description: 'A search form.', classname: 'widget_search' },
  { id: 'tag_cloud', name: 'Tag Cloud', description: 'The most used tags.', classname: 'widget_tag_cloud' },
  { id: 'text', name: 'Text', description: 'Text.', classname: 'widget_text' },
];

export const widgetTypeIds = widgetTypes.map((type) => type.id);
