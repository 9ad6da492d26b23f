import { isoSeconds, isProvisioned } from '../../time.js';
import { findImage, type Image } from '../catalog/data.js';
import type { UserImageRow } from './row.js';

/**
 * A snapshot, backup or custom image as an image: private, in its regions, described by the image it was taken of
 * (or, custom, as it was imported). A custom image is `NEW` for the provisioning time, then `available`.
 */
export function presentUserImage(row: UserImageRow, timing?: { provisionMs: number; now: number }): Image {
  const base = row.base_image_id === null ? undefined : findImage(row.base_image_id);
  // Without timing (an image shown inside a droplet made from it) the import is over.
  const imported =
    row.type === 'custom' &&
    timing !== undefined &&
    !isProvisioned(new Date(row.created_at), timing.provisionMs, timing.now);
  return {
    id: row.id,
    name: row.name,
    distribution: row.distribution ?? base?.distribution ?? 'Unknown',
    slug: null,
    public: false,
    regions: [row.region, ...(row.transferred ?? [])],
    created_at: isoSeconds(new Date(row.created_at)),
    min_disk_size: row.min_disk_size,
    type: row.type,
    size_gigabytes: Number(row.size_gigabytes),
    description: row.description ?? (base ? `${base.description} snapshot` : ''),
    tags: row.tags,
    status: imported ? 'NEW' : 'available',
    error_message: '',
  };
}
