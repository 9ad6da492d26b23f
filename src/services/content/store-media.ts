import type { Database } from '../../platform/database.js';

/** File names of attachments, for core's wp_unique_filename (`photo.png`, then `photo-1.png`…). */
export class MediaStore {
  constructor(private readonly db: Database) {}

  async uniqueFile(folder: string, name: string) {
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    const { rows } = await this.db.query<{ file: string }>(
      `SELECT media->>'file' AS file FROM content.posts WHERE type = 'attachment' AND media->>'file' LIKE $1`,
      [`${folder}/${stem.replace(/[\\%_]/g, (c) => `\\${c}`)}%`],
    );
    const taken = new Set(rows.map((r) => r.file));
    if (!taken.has(`${folder}/${name}`)) return `${folder}/${name}`;
    for (let n = 1; ; n++)
      if (!taken.has(`${folder}/${stem}-${n}${ext}`)) return `${folder}/${stem}-${n}${ext}`;
  }
}
