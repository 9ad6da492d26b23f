// The theme WordPress 6.1 activates on a fresh install, as the test WordPress has it (Debian's `wordpress` package
// ships only this one): what `/wp/v2/themes` reads from its style.css and theme.json, and the features it declares.
// Backlot has no theme files; the screenshot address is WordPress's, under the site.

export const activeTheme = {
  stylesheet: 'twentytwentythree',
  template: 'twentytwentythree',
  requires_php: '5.6',
  requires_wp: '6.1',
  textdomain: 'twentytwentythree',
  version: '1.0',
  author: {
    raw: 'the WordPress team',
    rendered: '<a href="https://wordpress.org">the WordPress team</a>',
  },
  author_uri: {
    raw: 'https://wordpress.org',
    rendered: 'https://wordpress.org',
  },
  description: {
    raw: 'Twenty Twenty-Three is designed to take advantage of the new design tools introduced in WordPress 6.1. With a clean, blank base as a starting point, this default theme includes ten diverse style variations created by members of the WordPress community. Whether you want to build a complex or incredibly simple website, you can do it quickly and intuitively through the bundled styles or dive into creation and full customization yourself.',
    rendered:
      'Twenty Twenty-Three is designed to take advantage of the new design tools introduced in WordPress 6.1. With a clean, blank base as a starting point, this default theme includes ten diverse style variations created by members of the WordPress community. Whether you want to build a complex or incredibly simple website, you can do it quickly and intuitively through the bundled styles or dive into creation and full customization yourself.',
  },
  name: {
    raw: 'Twenty Twenty-Three',
    rendered: 'Twenty Twenty-Three',
  },
  tags: {
    raw: [
      'one-column',
      'custom-colors',
      'custom-menu',
      'custom-logo',
      'editor-style',
      'featured-images',
      'full-site-editing',
      'block-patterns',
      'rtl-language-support',
      'sticky-post',
      'threaded-comments',
      'translation-ready',
      'wide-blocks',
      'block-styles',
      'accessibility-ready',
      'blog',
      'portfolio',
      'news',
    ],
    rendered:
      'one-column, custom-colors, custom-menu, custom-logo, editor-style, featured-images, full-site-editing, block-patterns, rtl-language-support, sticky-post, threaded-comments, translation-ready, wide-blocks, block-styles, accessibility-ready, blog, portfolio, news',
  },
  theme_uri: {
    raw: 'https://wordpress.org/themes/twentytwentythree',
    rendered: 'https://wordpress.org/themes/twentytwentythree',
  },
  status: 'active',
  theme_supports: {
    'align-wide': false,
    'automatic-feed-links': true,
    'block-templates': true,
    'block-template-parts': false,
    'custom-background': false,
    'custom-header': false,
    'custom-logo': false,
    'customize-selective-refresh-widgets': false,
    'dark-editor-style': false,
    'disable-custom-colors': false,
    'disable-custom-font-sizes': false,
    'disable-custom-gradients': false,
    'disable-layout-styles': false,
    'editor-color-palette': false,
    'editor-font-sizes': false,
    'editor-gradient-presets': false,
    'editor-styles': true,
    html5: ['comment-form', 'comment-list', 'search-form', 'gallery', 'caption', 'style', 'script'],
    formats: ['standard'],
    'post-thumbnails': true,
    'responsive-embeds': true,
    'title-tag': false,
    'wp-block-styles': false,
  },
} as const;
