import { stripBlockComments } from '../../render-text.js';
import type { PhpValue } from './php.js';

// WP_Widget_Block, the widget the block-based widgets editor makes (one block's HTML in `content`): its update(),
// its admin form and its front-end output, as WordPress 6.1 writes them.

export type Instance = Record<string, PhpValue>;

const defaults: Instance = { content: '' };

/** update(): the stored instance with the new content (administrators have unfiltered_html: kept as sent). */
export function updateBlockWidget(incoming: unknown, old: Instance | undefined): Instance {
  const content =
    incoming && typeof incoming === 'object' && 'content' in incoming
      ? ((incoming as Instance).content ?? null)
      : null;
  return { ...defaults, ...(old ?? {}), content };
}

/** esc_textarea(): htmlspecialchars with ENT_QUOTES. */
const escTextarea = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#039;');

const text = (value: PhpValue | undefined) =>
  value === null || value === undefined || value === false ? '' : value === true ? '1' : String(value);

/** form(): the admin form of widget `block-<number>` (number -1 when it has none yet), trimmed. */
export function blockWidgetForm(number: number, instance: Instance | undefined): string {
  const id = `widget-block-${number}-content`;
  return (
    `<p>\n\t\t\t<label for="${id}">\n\t\t\t\tBlock HTML:\t\t\t</label>\n` +
    `\t\t\t<textarea id="${id}" name="widget-block[${number}][content]" rows="6" cols="50" class="widefat code">` +
    `${escTextarea(text(instance?.content))}</textarea>\n\t\t</p>`
  );
}

/** get_dynamic_classname(): the first block's name adds the class of the classic widget it replaces. */
const classicClass: Record<string, string> = {
  'core/paragraph': 'widget_text',
  'core/calendar': 'widget_calendar',
  'core/search': 'widget_search',
  'core/html': 'widget_custom_html',
  'core/archives': 'widget_archive',
  'core/latest-posts': 'widget_recent_entries',
  'core/latest-comments': 'widget_recent_comments',
  'core/tag-cloud': 'widget_tag_cloud',
  'core/categories': 'widget_categories',
  'core/audio': 'widget_media_audio',
  'core/video': 'widget_media_video',
  'core/image': 'widget_media_image',
  'core/gallery': 'widget_media_gallery',
  'core/rss': 'widget_rss',
};

function dynamicClass(content: string): string {
  const first = /^\s*<!--\s+wp:([a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?)[\s/]/.exec(content)?.[1];
  const name = first && !first.includes('/') ? `core/${first}` : first;
  const extra = name ? classicClass[name] : undefined;
  return extra ? `widget_block ${extra}` : 'widget_block';
}

/**
 * the_widget() with the default wrapper: the content with its block comments taken out (static blocks; a dynamic
 * block such as core/search is not rendered here, see docs/content.md).
 */
export function blockWidgetPreview(instance: Instance | undefined): string {
  const content = text(instance?.content);
  return `<div class="widget ${dynamicClass(content)}">${stripBlockComments(content)}</div>`;
}
