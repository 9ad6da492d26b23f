import type { Database } from '../../platform/database.js';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** File names of attachments, for core's wp_unique_filename (`photo.png`, then `photo-1.png`…). */
export class MediaStore {
  constructor(private readonly db: Database) {}

  /**
   * A name in `folder` that no stored file uses: neither an attachment's own file, its original, nor one of its
   * resized copies. An image's name is also taken when a file looks like one of its copies would
   * (`photo-150x150.jpg` blocks `photo.jpg`), since the copies are written next to it.
   */
  async uniqueFile(folder: string, name: string, isImage = false) {
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    // core stores the extension in lower case (wp_unique_filename), as the copies' names have it.
    const ext = dot > 0 ? name.slice(dot).toLowerCase() : '';
    const { rows } = await this.db.query<{ files: string[] }>(
      `SELECT ARRAY[media->>'file', $2 || (media->>'original_image')]
              || ARRAY(SELECT $2 || (s->>'file') FROM jsonb_array_elements(COALESCE(media->'sizes', '[]')) s) AS files
         FROM content.posts WHERE type = 'attachment' AND media->>'file' LIKE $1`,
      [`${escapeLike(folder)}/%`, `${folder}/`],
    );
    const taken = new Set(rows.flatMap((r) => r.files.filter(Boolean)));
    const free = (candidate: string) => {
      if (taken.has(`${folder}/${candidate}${ext}`)) return false;
      if (!isImage) return true;
      const copy = new RegExp(
        `^${escapeRegExp(`${folder}/${candidate}`)}-(\\d+x\\d+|scaled)${escapeRegExp(ext)}$`,
        'i',
      );
      return ![...taken].some((file) => copy.test(file));
    };
    if (free(stem)) return `${folder}/${stem}${ext}`;
    for (let n = 1; ; n++) if (free(`${stem}-${n}`)) return `${folder}/${stem}-${n}${ext}`;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
