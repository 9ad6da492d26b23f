import type { Queryable } from '../../../../platform/database.js';
import type { ActionRow } from '../actions/row.js';
import { findSize } from '../catalog/data.js';
import { findMachine } from '../droplets/store.js';
import { insertUserImage } from '../images/store.js';

const setMachine = (db: Queryable, id: number, assignments: string, values: unknown[]) =>
  db.query(`UPDATE machines.machines SET ${assignments} WHERE id = $1`, [id, ...values]);

const addFeature = (db: Queryable, id: number, feature: string) =>
  setMachine(
    db,
    id,
    'features = CASE WHEN $2 = ANY (features) THEN features ELSE array_append(features, $2) END',
    [feature],
  );

/** Takes an image of the machine as it is now (a snapshot, or the backup that enabling backups makes). */
async function imageOf(
  db: Queryable,
  machineId: number,
  type: 'snapshot' | 'backup',
  name: string,
  at: Date,
) {
  const machine = await findMachine(db, machineId);
  if (!machine) return;
  const disk = machine.disk ?? findSize(machine.size)?.disk ?? 0;
  await insertUserImage(db, {
    name,
    type,
    machine_id: machineId,
    base_image_id: machine.user_image?.base_image_id ?? machine.image_id,
    region: machine.region,
    min_disk_size: disk,
    // A fresh system uses a small part of its disk; the figure is made up but stable.
    size_gigabytes: Math.round(disk * 0.08 * 100) / 100,
    created_at: at,
  });
}

/** The change a completed action makes; the parameters were checked when the action was asked for. */
export async function applyEffect(db: Queryable, action: ActionRow, completedAt: Date): Promise<void> {
  const p = action.params;
  if (action.type === 'attach_volume' || action.type === 'detach_volume') {
    const machineId = action.type === 'attach_volume' ? Number(p.droplet_id) : null;
    await db.query('UPDATE machines.volumes SET machine_id = $2 WHERE id = $1', [p.volume_id, machineId]);
    return;
  }
  if (action.type === 'resize_volume') {
    await db.query('UPDATE machines.volumes SET size_gigabytes = $2 WHERE id = $1', [
      p.volume_id,
      p.size_gigabytes,
    ]);
    return;
  }
  const id = action.resource_id;
  if (id === null) return;
  switch (action.type) {
    case 'power_off':
    case 'shutdown':
      await setMachine(db, id, `power = 'off'`, []);
      break;
    case 'power_on':
    case 'reboot':
    case 'power_cycle':
      await setMachine(db, id, `power = 'on'`, []);
      break;
    case 'resize':
      await setMachine(db, id, 'size = $2, disk = $3', [p.size, p.disk ?? null]);
      break;
    case 'rebuild':
      await setMachine(db, id, `image_id = $2, power = 'on'`, [p.image]);
      break;
    case 'rename':
      await setMachine(db, id, 'name = $2', [p.name]);
      break;
    case 'snapshot':
      await imageOf(db, id, 'snapshot', String(p.name), completedAt);
      break;
    case 'enable_backups':
      await addFeature(db, id, 'backups');
      await setMachine(db, id, 'backup_policy = $2', [JSON.stringify(p.backup_policy)]);
      await imageOf(db, id, 'backup', `${completedAt.toISOString().slice(0, 10)} backup`, completedAt);
      break;
    case 'disable_backups':
      await setMachine(db, id, `features = array_remove(features, 'backups'), backup_policy = NULL`, []);
      break;
    case 'change_backup_policy':
      await setMachine(db, id, 'backup_policy = $2', [JSON.stringify(p.backup_policy)]);
      break;
    case 'change_kernel':
      await setMachine(db, id, 'kernel_id = $2', [p.kernel]);
      break;
    case 'enable_ipv6':
      await addFeature(db, id, 'ipv6');
      await setMachine(db, id, 'ipv6 = true', []);
      break;
    case 'enable_private_networking':
      await addFeature(db, id, 'private_networking');
      break;
    case 'restore':
      await setMachine(db, id, `power = 'on'`, []);
      break;
    // password_reset and create change nothing that the API shows.
  }
}
