import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { unprocessable } from '../../errors.js';
import type { MachinesSettings } from '../../settings.js';
import { presentAction } from '../actions/present.js';
import { insertAction } from '../actions/store.js';
import { findMachine } from '../droplets/store.js';
import { tagPattern } from '../tags/rules.js';
import { changeTagging, createTag, tagSpellings } from '../tags/store.js';
import { MAX_GB } from '../volumes/rules.js';
import { type VolumeRow, volumeBusy } from '../volumes/store.js';

export const VolumeActionBody = Type.Object({
  type: Type.String(),
  droplet_id: Type.Optional(Type.Integer()),
  region: Type.Optional(Type.String()),
  size_gigabytes: Type.Optional(Type.Integer()),
  volume_name: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
});
/** Checks an attach, detach or resize against the volume as it is and records it; it takes effect on completion. */
export async function startVolumeAction(
  db: Database,
  settings: MachinesSettings,
  volume: VolumeRow,
  body: typeof VolumeActionBody.static,
  /** The request's one reading of the clock (requestTime). */
  now: Date,
) {
  if (await volumeBusy(db, volume.id, new Date(now.getTime() - settings.provisionMs)))
    throw unprocessable('The volume already has a pending action.');
  const params: Record<string, unknown> = { volume_id: volume.id };
  let type: string;
  let tags: string[] = [];
  if (body.type === 'attach' || body.type === 'detach') {
    if (body.droplet_id === undefined) throw unprocessable('droplet_id is required.');
    const machine = await findMachine(db, body.droplet_id);
    if (!machine) throw unprocessable(`Droplet ${body.droplet_id} could not be found.`);
    if (body.type === 'attach') {
      if (volume.machine_id !== null) throw unprocessable('The volume is already attached to a droplet.');
      if (machine.region !== volume.region)
        throw unprocessable('The volume and the droplet must be in the same region.');
      tags = [...new Set(body.tags ?? [])];
      for (const tag of tags)
        if (!tagPattern.test(tag))
          throw unprocessable(`You specified an invalid tag (${JSON.stringify(tag)}).`);
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
  // Attach tags the volume at once, as tagging through /v2/tags would.
  for (const tag of await tagSpellings(db, tags)) {
    await createTag(db, tag);
    await changeTagging(db, tag, [{ type: 'volume', id: volume.id }], true);
  }
  return { action: presentAction(action, settings.provisionMs, now.getTime()) };
}
