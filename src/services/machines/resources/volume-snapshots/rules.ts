import { badRequest } from '../../errors.js';
import { tagPattern } from '../tags/rules.js';
import type { CreateVolumeSnapshot } from './schemas.js';

/** The name is required (the document's only rule); tags follow the tag rule. Bad input is a 400 here, as documented. */
export function checkCreateSnapshot(body: typeof CreateVolumeSnapshot.static) {
  const name = body.name;
  if (!name?.trim()) throw badRequest('name is required to snapshot a volume.');
  if (name.length > 255) throw badRequest('name must be at most 255 characters.');
  const tags = [...new Set(body.tags ?? [])];
  for (const tag of tags)
    if (!tagPattern.test(tag)) throw badRequest(`You specified an invalid tag (${JSON.stringify(tag)}).`);
  return { name, tags };
}
