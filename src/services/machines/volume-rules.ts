import { Type } from '@sinclair/typebox';
import type { Database } from '../../platform/database.js';
import { insertAction } from './actions-store.js';
import { findRegion } from './catalog.js';
import { unprocessable } from './errors.js';
import { isoSeconds, presentAction } from './present.js';
import { CatalogQuery, RegionSchema } from './schemas.js';
import type { MachinesSettings } from './settings.js';
import { findMachine } from './store.js';
import { tagPattern } from './tags.js';
import { type VolumeRow, volumeBusy } from './volumes-store.js';

/** Volumes' schemas and checks: what a create and an attach, detach or resize may ask for. */
export const VolumeSchema = Type.Object({
  id: Type.String(),
  droplet_ids: Type.Array(Type.Integer()),
  name: Type.String(),
  description: Type.String(),
  size_gigabytes: Type.Integer(),
  created_at: Type.String(),
  tags: Type.Array(Type.String()),
  region: RegionSchema,
  filesystem_type: Type.String(),
  filesystem_label: Type.String(),
});
export const VolumeParams = Type.Object({ volume_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }) });
export const VolumeQuery = Type.Object({
  ...CatalogQuery.properties,
  name: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
  region: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
});
export const CreateVolume = Type.Object({
  name: Type.Optional(Type.String()),
  size_gigabytes: Type.Optional(Type.Integer()),
  region: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  filesystem_type: Type.Optional(Type.String()),
  filesystem_label: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
});
export const VolumeActionBody = Type.Object({
  type: Type.String(),
  droplet_id: Type.Optional(Type.Integer()),
  region: Type.Optional(Type.String()),
  size_gigabytes: Type.Optional(Type.Integer()),
  volume_name: Type.Optional(Type.String()),
});
const volumeName = /^[a-z][a-z0-9-]{0,63}$/;
const MAX_GB = 16_384;

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

export function checkCreate(body: typeof CreateVolume.static) {
  if (!body.name || !volumeName.test(body.name))
    throw unprocessable('name must be lowercase letters, numbers and "-", start with a letter, at most 64.');
  if (body.size_gigabytes === undefined || body.size_gigabytes < 1 || body.size_gigabytes > MAX_GB)
    throw unprocessable(`size_gigabytes must be between 1 and ${MAX_GB}.`);
  if (!body.region || !findRegion(body.region))
    throw unprocessable('You specified an invalid region for volume creation.');
  if (body.filesystem_type && body.filesystem_type !== 'ext4' && body.filesystem_type !== 'xfs')
    throw unprocessable('filesystem_type must be ext4 or xfs.');
  const tags = [...new Set(body.tags ?? [])];
  for (const tag of tags)
    if (!tagPattern.test(tag)) throw unprocessable(`You specified an invalid tag (${JSON.stringify(tag)}).`);
  return tags;
}

/** Checks an attach, detach or resize against the volume as it is and records it; it takes effect on completion. */
export async function startVolumeAction(
  db: Database,
  settings: MachinesSettings,
  volume: VolumeRow,
  body: typeof VolumeActionBody.static,
) {
  const now = new Date();
  if (await volumeBusy(db, volume.id, new Date(now.getTime() - settings.provisionMs)))
    throw unprocessable('The volume already has a pending action.');
  const params: Record<string, unknown> = { volume_id: volume.id };
  let type: string;
  if (body.type === 'attach' || body.type === 'detach') {
    if (body.droplet_id === undefined) throw unprocessable('droplet_id is required.');
    const machine = await findMachine(db, body.droplet_id);
    if (!machine) throw unprocessable(`Droplet ${body.droplet_id} could not be found.`);
    if (body.type === 'attach') {
      if (volume.machine_id !== null) throw unprocessable('The volume is already attached to a droplet.');
      if (machine.region !== volume.region)
        throw unprocessable('The volume and the droplet must be in the same region.');
    } else if (volume.machine_id !== body.droplet_id) {
      throw unprocessable(`The volume is not attached to droplet ${body.droplet_id}.`);
    }
    params.droplet_id = body.droplet_id;
    type = `${body.type}_volume`;
  } else if (body.type === 'resize') {
    if (
      body.size_gigabytes === undefined ||
      body.size_gigabytes <= volume.size_gigabytes ||
      body.size_gigabytes > MAX_GB
    )
      throw unprocessable(
        `size_gigabytes must be larger than ${volume.size_gigabytes} and at most ${MAX_GB}.`,
      );
    params.size_gigabytes = body.size_gigabytes;
    type = 'resize_volume';
  } else {
    throw unprocessable('The action type must be attach, detach or resize.');
  }
  const action = await insertAction(db, {
    type,
    resourceId: null,
    resourceType: 'volume',
    region: volume.region,
    params,
    startedAt: now,
  });
  return { action: presentAction(action, settings.provisionMs) };
}

/** `/v2/volumes`: block storage, attached to machines through actions (or at machine creation). */
