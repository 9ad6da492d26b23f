import { unprocessable } from '../../errors.js';
import { findRegion } from '../catalog/data.js';
import { isPrivate, parseCidr } from './addresses.js';

const vpcName = /^[a-zA-Z0-9\-.]+$/;
const peeringName = /^[a-zA-Z0-9-]+$/;

/** The document's name pattern, 1–255 characters. */
export function checkName(name: string, peering = false): string {
  if (name.length === 0 || name.length > 255 || !(peering ? peeringName : vpcName).test(name)) {
    throw unprocessable(
      peering
        ? 'name may only contain letters, digits and dashes.'
        : 'name may only contain letters, digits, dashes and periods.',
    );
  }
  return name;
}

export function checkDescription(description: string | undefined): string | undefined {
  if (description !== undefined && description.length > 255)
    throw unprocessable('description may be at most 255 characters.');
  return description;
}

export function checkRegion(slug: string): string {
  if (!findRegion(slug)) throw unprocessable(`region ${JSON.stringify(slug)} is not a valid region.`);
  return slug;
}

/** RFC 1918, from /16 to /28, as the document says. */
export function checkRange(text: string) {
  const range = parseCidr(text);
  if (!range) throw unprocessable(`ip_range ${JSON.stringify(text)} is not a valid CIDR network.`);
  if (!isPrivate(range)) throw unprocessable('ip_range must be in a private (RFC 1918) network.');
  if (range.prefix < 16 || range.prefix > 28)
    throw unprocessable('ip_range may not be smaller than /28 nor larger than /16.');
  return range;
}
