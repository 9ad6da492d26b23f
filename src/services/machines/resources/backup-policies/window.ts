import { isoSeconds } from '../../time.js';
import type { BackupPolicy } from '../droplets/store.js';

export const weekdays = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** The next start of the policy's window after `now`: its hour (UTC) every day, or on its weekday. */
export function nextWindow(policy: BackupPolicy, now: Date) {
  const day = policy.plan === 'weekly' ? weekdays.indexOf(policy.weekday ?? 'SUN') : -1;
  const hour = policy.hour ?? 0;
  for (let ahead = 0; ahead <= 7; ahead++) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + ahead, hour));
    if (start > now && (day < 0 || start.getUTCDay() === day)) {
      const end = new Date(start.getTime() + policy.window_length_hours * 3600_000);
      return { start: isoSeconds(start), end: isoSeconds(end) };
    }
  }
  return null;
}
