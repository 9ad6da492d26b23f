import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../../../../platform/database.js';
import { unprocessable } from '../../errors.js';
import { findKey } from '../keys/store.js';
import { findVolume, findVolumeByName } from '../volumes/store.js';
import type { CreateBody } from './schemas.js';

/**
 * The SSH keys and volumes a create names, which must exist: keys by id or fingerprint, volumes by id (a string,
 * or `{"id"}` as godo sends) or `{"name"}`, in the machine's region and not attached elsewhere.
 */
export async function resolveCreateReferences(
  db: Queryable,
  body: Static<typeof CreateBody>,
  region: string,
  count: number,
  title: string,
): Promise<{ sshKeyIds: number[]; volumeIds: string[] }> {
  const sshKeyIds: number[] = [];
  for (const ref of body.ssh_keys ?? []) {
    const key = await findKey(db, ref);
    if (!key) throw unprocessable(`ssh_keys: the SSH key ${JSON.stringify(ref)} does not exist.`);
    if (!sshKeyIds.includes(key.id)) sshKeyIds.push(key.id);
  }
  const volumeIds: string[] = [];
  for (const ref of body.volumes ?? []) {
    const volume =
      typeof ref === 'string'
        ? await findVolume(db, ref)
        : ref.id !== undefined
          ? await findVolume(db, ref.id)
          : ref.name !== undefined
            ? await findVolumeByName(db, ref.name, region)
            : undefined;
    if (!volume) throw unprocessable(`volumes: the volume ${JSON.stringify(ref)} does not exist.`);
    if (volume.region !== region)
      throw unprocessable(`volumes: the volume ${volume.name} is in ${volume.region}, not ${region}.`);
    if (volume.machine_id !== null)
      throw unprocessable(`volumes: the volume ${volume.name} is already attached.`);
    if (!volumeIds.includes(volume.id)) volumeIds.push(volume.id);
  }
  if (volumeIds.length > 0 && count > 1)
    throw unprocessable(`volumes can only be attached when creating a single ${title}.`);
  return { sshKeyIds, volumeIds };
}
