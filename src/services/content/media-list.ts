import type { Static } from '@sinclair/typebox';
import { can } from './capabilities.js';
import type { MediaListQuery } from './media-schemas.js';
import { dateParam } from './post-dates.js';
import { checkOrderby, DEFAULT_PER_PAGE, listOrder } from './post-list.js';
import type { PostFilter, UserRow } from './store.js';

/**
 * WordPress 6.1's wp_get_mime_types(), the list its media list checks `mime_type` against (get_allowed_mime_types:
 * without Flash and .exe, and without HTML and JavaScript for callers lacking unfiltered_html).
 */
const wordpressMimeTypes = new Set(
  `application/java application/javascript application/msword application/octet-stream application/onenote
  application/oxps application/pdf application/rar application/rtf application/ttaf+xml application/vnd.apple.keynote
  application/vnd.apple.numbers application/vnd.apple.pages application/vnd.ms-access application/vnd.ms-excel
  application/vnd.ms-excel.addin.macroEnabled.12 application/vnd.ms-excel.sheet.binary.macroEnabled.12
  application/vnd.ms-excel.sheet.macroEnabled.12 application/vnd.ms-excel.template.macroEnabled.12
  application/vnd.ms-powerpoint application/vnd.ms-powerpoint.addin.macroEnabled.12
  application/vnd.ms-powerpoint.presentation.macroEnabled.12 application/vnd.ms-powerpoint.slide.macroEnabled.12
  application/vnd.ms-powerpoint.slideshow.macroEnabled.12 application/vnd.ms-powerpoint.template.macroEnabled.12
  application/vnd.ms-project application/vnd.ms-word.document.macroEnabled.12
  application/vnd.ms-word.template.macroEnabled.12 application/vnd.ms-write application/vnd.ms-xpsdocument
  application/vnd.oasis.opendocument.chart application/vnd.oasis.opendocument.database
  application/vnd.oasis.opendocument.formula application/vnd.oasis.opendocument.graphics
  application/vnd.oasis.opendocument.presentation application/vnd.oasis.opendocument.spreadsheet
  application/vnd.oasis.opendocument.text application/vnd.openxmlformats-officedocument.presentationml.presentation
  application/vnd.openxmlformats-officedocument.presentationml.slide
  application/vnd.openxmlformats-officedocument.presentationml.slideshow
  application/vnd.openxmlformats-officedocument.presentationml.template
  application/vnd.openxmlformats-officedocument.spreadsheetml.sheet
  application/vnd.openxmlformats-officedocument.spreadsheetml.template
  application/vnd.openxmlformats-officedocument.wordprocessingml.document
  application/vnd.openxmlformats-officedocument.wordprocessingml.template application/wordperfect
  application/x-7z-compressed application/x-gzip application/x-tar application/zip audio/aac audio/flac audio/midi
  audio/mpeg audio/ogg audio/wav audio/x-matroska audio/x-ms-wax audio/x-ms-wma audio/x-realaudio image/bmp
  image/gif image/heic image/jpeg image/png image/tiff image/webp image/x-icon text/calendar text/css text/csv
  text/plain text/richtext text/tab-separated-values text/vtt video/3gpp video/3gpp2 video/avi video/divx video/mp4
  video/mpeg video/ogg video/quicktime video/webm video/x-flv video/x-matroska video/x-ms-asf video/x-ms-wm
  video/x-ms-wmv video/x-ms-wmx`.split(/\s+/),
);
const unfilteredOnly = new Set(['text/html', 'application/javascript']);

/** `mime_type` filters only when it is one of the allowed types; anything else is ignored, as core does. */
function allowedMime(mime: string | undefined, user: UserRow | undefined) {
  if (!mime) return undefined;
  if (unfilteredOnly.has(mime)) return can(user, 'unfiltered_html') ? mime : undefined;
  return wordpressMimeTypes.has(mime) ? mime : undefined;
}

/** A media list request as a store filter (the posts controller's mappings plus the attachments controller's). */
export function mediaListFilter(
  q: Static<typeof MediaListQuery>,
  user: UserRow | undefined,
  statuses: PostFilter['statuses'],
): PostFilter & { page: number } {
  checkOrderby(q);
  const perPage = q.per_page ?? (q.page !== undefined ? DEFAULT_PER_PAGE : undefined);
  const page = q.page ?? 1;
  return {
    type: 'attachment',
    statuses,
    search: q.search,
    searchFiles: true,
    authors: q.author,
    authorExclude: q.author_exclude,
    include: q.include,
    exclude: q.exclude,
    slugs: q.slug,
    parents: q.parent,
    parentExclude: q.parent_exclude,
    // An allowed mime_type wins over media_type.
    mimePrefix: allowedMime(q.mime_type, user) ?? (q.media_type ? `${q.media_type}/` : undefined),
    before: dateParam('before', q.before),
    after: dateParam('after', q.after),
    modifiedBefore: dateParam('modified_before', q.modified_before),
    modifiedAfter: dateParam('modified_after', q.modified_after),
    publicParentsOnly: !can(user, 'edit_posts'),
    // include, include_slugs and relevance are listOrder and titleFirst; the date orders what is left.
    orderby:
      q.orderby === 'include' || q.orderby === 'relevance' || q.orderby === 'include_slugs'
        ? 'date'
        : (q.orderby ?? 'date'),
    order: q.order ?? 'desc',
    listOrder: listOrder(q.orderby, q.include, q.slug),
    titleFirst: q.orderby === 'relevance',
    limit: perPage,
    offset: q.offset ?? (perPage ? (page - 1) * perPage : 0),
    page,
  };
}
