import { unprocessable } from '../../errors.js';
import { isoSeconds } from '../../time.js';
import { findRegion } from '../catalog/data.js';
import { tagPattern } from '../tags/rules.js';
import type { VolumeSnapshotRow } from '../volume-snapshots/store.js';
import type { CreateVolume } from './schemas.js';
import type { VolumeRow } from './store.js';

export const VOLUME_LIMIT = 100;
export const MAX_GB = 16_384;
const volumeName = /^[a-z][a-z0-9-]{0,63}$/;

export const presentVolume = (v: VolumeRow) => ({
  id: v.id,
  droplet_ids: v.machine_id === null ? [] : [v.machine_id],
  name: v.name,
  description: v.description,
  size_gigabytes: v.size_gigabytes,
  created_at: isoSeconds(v.created_at),
  tags: v.tags,
  region: findRegion(v.region),
  filesystem_type: v.filesystem_type,
  filesystem_label: v.filesystem_label,
});

/** A volume restored from a snapshot takes the snapshot's region, filesystem and at least its size. */
export function checkCreate(body: typeof CreateVolume.static, source?: VolumeSnapshotRow) {
  if (!body.name || !volumeName.test(body.name))
    throw unprocessable('name must be lowercase letters, numbers and "-", start with a letter, at most 64.');
  if (body.size_gigabytes === undefined || body.size_gigabytes < 1 || body.size_gigabytes > MAX_GB)
    throw unprocessable(`size_gigabytes must be between 1 and ${MAX_GB}.`);
  if (!body.region || !findRegion(body.region))
    throw unprocessable('You specified an invalid region for volume creation.');
  if (body.filesystem_type && body.filesystem_type !== 'ext4' && body.filesystem_type !== 'xfs')
    throw unprocessable('filesystem_type must be ext4 or xfs.');
  if (body.filesystem_label && body.filesystem_label.length > 16)
    throw unprocessable('filesystem_label must be at most 16 characters.');
  if (source && source.region !== body.region)
    throw unprocessable(`The snapshot ${source.id} is in region ${source.region}; create the volume there.`);
  if (source && (body.size_gigabytes as number) < source.min_disk_size)
    throw unprocessable(`size_gigabytes must be at least ${source.min_disk_size}, the size of the snapshot.`);
  const tags = [...new Set(body.tags ?? [])];
  for (const tag of tags)
    if (!tagPattern.test(tag)) throw unprocessable(`You specified an invalid tag (${JSON.stringify(tag)}).`);
  return tags;
}
