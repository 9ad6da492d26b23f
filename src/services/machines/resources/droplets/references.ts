import type { Static } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import { unprocessable } from '../../errors.js';
import { findKey } from '../keys/store.js';
import { findVolume, findVolumeByName } from '../volumes/store.js';
import { ensureDefaultVpc, findVpc } from '../vpcs/store.js';
import type { CreateBody } from './schemas.js';

/**
 * The SSH keys and volumes a create names, which must exist: keys by id or fingerprint, volumes by id (a string,
 * or `{"id"}` as godo sends) or `{"name"}`, in the machine's region and not attached elsewhere; the VPC named
 * by `vpc_uuid`, in the machine's region, or else the region's default VPC (made when the region has none).
 */
export async function resolveCreateReferences(
  db: Database,
  body: Static<typeof CreateBody>,
  region: string,
  count: number,
  title: string,
): Promise<{ sshKeyIds: number[]; volumeIds: string[]; vpcUuid: string }> {
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
  const vpc = body.vpc_uuid
    ? await findVpc(db, body.vpc_uuid)
    : await ensureDefaultVpc(db, region, new Date());
  if (!vpc) throw unprocessable(`vpc_uuid: the VPC ${body.vpc_uuid} does not exist.`);
  if (vpc.region !== region)
    throw unprocessable(`vpc_uuid: the VPC ${vpc.name} is in ${vpc.region}, not ${region}.`);
  return { sshKeyIds, volumeIds, vpcUuid: vpc.id };
}
