import { isoSeconds } from '../../time.js';
import { findImage, type Image } from '../catalog/data.js';
import type { UserImageRow } from './row.js';

/** A snapshot or backup as an image: private, in its region, described by the image it was taken of. */
export function presentUserImage(row: UserImageRow): Image {
  const base = findImage(row.base_image_id);
  return {
    id: row.id,
    name: row.name,
    distribution: base?.distribution ?? 'Unknown',
    slug: null,
    public: false,
    regions: [row.region],
    created_at: isoSeconds(new Date(row.created_at)),
    min_disk_size: row.min_disk_size,
    type: row.type,
    size_gigabytes: Number(row.size_gigabytes),
    description: base ? `${base.description} snapshot` : '',
    tags: row.tags,
    status: 'available',
    error_message: '',
  };
}
