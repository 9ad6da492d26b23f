import type { Static } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import { unprocessable } from '../../errors.js';
import { findKernel, findSize } from '../catalog/data.js';
import type { BackupPolicy, MachineRow } from '../droplets/store.js';
import { resolveImage } from '../images/routes.js';
import type { ActionBody } from './schemas.js';

export const actionTypes = [
  'power_on',
  'power_off',
  'shutdown',
  'reboot',
  'power_cycle',
  'resize',
  'rebuild',
  'rename',
  'snapshot',
  'enable_backups',
  'disable_backups',
  'change_backup_policy',
  'change_kernel',
  'enable_ipv6',
  'enable_private_networking',
  'password_reset',
  'restore',
] as const;

/** The types `POST /v2/droplets/actions?tag_name=` accepts, as the provider's. */
export const bulkActionTypes = new Set([
  'power_cycle',
  'power_on',
  'power_off',
  'shutdown',
  'enable_private_networking',
  'enable_ipv6',
  'enable_backups',
  'disable_backups',
  'snapshot',
]);

const namePattern = /^[a-zA-Z0-9.-]{1,255}$/;
const weekdays = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'ALL'];

function backupPolicy(given: Static<typeof ActionBody>['backup_policy']): BackupPolicy {
  const plan = given?.plan ?? 'daily';
  if (plan !== 'daily' && plan !== 'weekly')
    throw unprocessable('backup_policy.plan must be daily or weekly.');
  const hour = given?.hour ?? 0;
  if (![0, 4, 8, 12, 16, 20].includes(hour))
    throw unprocessable('backup_policy.hour must be one of 0, 4, 8, 12, 16, 20.');
  const weekday = plan === 'weekly' ? (given?.weekday ?? 'SUN') : null;
  if (weekday !== null && !weekdays.includes(weekday))
    throw unprocessable(`backup_policy.weekday must be one of ${weekdays.join(', ')}.`);
  return {
    plan,
    weekday,
    hour,
    window_length_hours: 4,
    retention_period_days: plan === 'daily' ? 7 : 28,
  };
}

/**
 * Checks an action against the machine's current (settled) state and returns the parameters its effect needs;
 * an impossible transition is a 422 with the provider's wording.
 */
export async function actionParams(
  db: Database,
  machine: MachineRow,
  body: Static<typeof ActionBody>,
  title: string,
): Promise<Record<string, unknown>> {
  const off = machine.power === 'off';
  const has = (feature: string) => machine.features.includes(feature);
  switch (body.type) {
    case 'power_on':
      if (!off) throw unprocessable(`${title} is already powered on.`);
      return {};
    case 'power_off':
    case 'shutdown':
      if (off) throw unprocessable(`${title} is already powered off.`);
      return {};
    case 'reboot':
      if (off) throw unprocessable(`${title} is powered off; use power_on.`);
      return {};
    case 'power_cycle':
    case 'password_reset':
      return {};
    case 'resize': {
      if (!body.size) throw unprocessable(`You must specify a size for ${title} resize.`);
      const size = findSize(body.size);
      if (!size) throw unprocessable(`You specified an invalid size for ${title} resize.`);
      if (!size.regions.includes(machine.region))
        throw unprocessable(`The size ${size.slug} is not available in region ${machine.region}.`);
      if (!off) throw unprocessable(`${title} must be powered off before resizing.`);
      const currentDisk = machine.disk ?? (findSize(machine.size)?.disk as number);
      if (size.disk < currentDisk)
        throw unprocessable(
          `The size ${size.slug} has a smaller disk than the ${title.toLowerCase()}'s ${currentDisk} GB.`,
        );
      // Without `disk: true` only CPU and memory change, so the machine can be resized back down later.
      return { size: size.slug, disk: body.disk === true || size.disk === currentDisk ? null : currentDisk };
    }
    case 'rebuild': {
      if (body.image === undefined || body.image === '')
        throw unprocessable(`You must specify an image for ${title} rebuild.`);
      const image = await resolveImage(db, body.image);
      if (!image) throw unprocessable(`You specified an invalid image for ${title} rebuild.`);
      return { image: image.id };
    }
    case 'restore': {
      if (body.image === undefined) throw unprocessable(`You must specify an image for ${title} restore.`);
      const image = await resolveImage(db, body.image);
      const ours =
        machine.backup_ids.includes(Number(image?.id)) || machine.snapshot_ids.includes(Number(image?.id));
      if (!image || !ours)
        throw unprocessable(`The image is not a backup or snapshot of this ${title.toLowerCase()}.`);
      return { image: image.id };
    }
    case 'rename':
      if (!body.name || !namePattern.test(body.name))
        throw unprocessable(
          'Name Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -), at most 255',
        );
      return { name: body.name };
    case 'snapshot': {
      const name = body.name?.trim() || `${machine.name}-${Date.now()}`;
      if (name.length > 255) throw unprocessable('name must be at most 255 characters.');
      return { name };
    }
    case 'enable_backups':
      if (has('backups')) throw unprocessable(`Backups are already enabled for this ${title.toLowerCase()}.`);
      return { backup_policy: backupPolicy(body.backup_policy) };
    case 'disable_backups':
      if (!has('backups')) throw unprocessable(`Backups are not enabled for this ${title.toLowerCase()}.`);
      return {};
    case 'change_backup_policy':
      if (!has('backups')) throw unprocessable(`Backups are not enabled for this ${title.toLowerCase()}.`);
      return { backup_policy: backupPolicy(body.backup_policy) };
    case 'change_kernel':
      if (body.kernel === undefined || !findKernel(body.kernel))
        throw unprocessable('You specified an invalid kernel.');
      return { kernel: body.kernel };
    case 'enable_ipv6':
      if (machine.ipv6) throw unprocessable(`IPv6 is already enabled for this ${title.toLowerCase()}.`);
      return {};
    case 'enable_private_networking':
      return {};
    default:
      throw unprocessable(
        `The action type ${JSON.stringify(body.type)} is not valid (one of ${actionTypes.join(', ')}).`,
      );
  }
}
