import type { Static } from '@sinclair/typebox';
import { unprocessable } from '../../errors.js';
import { defaultVpcUuid, findRegion, findSize, type Image, regions } from '../catalog/data.js';
import type { CreateBody } from './schemas.js';
import type { NewMachine } from './store.js';

// The provider's pattern: hostname characters, ending in a letter or digit.
const namePattern = /^(?=.{1,255}$)[a-zA-Z0-9.-]*[a-zA-Z0-9]$/;
const tagPattern = /^[a-zA-Z0-9_:-]{1,255}$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_USER_DATA = 64 * 1024;
const MAX_NAMES = 10;
const DEFAULT_REGION = 'nyc3';

/** Checks a create request against the catalog; every refusal is a 422 naming the field. */
export function parseCreateRequest(
  body: Static<typeof CreateBody>,
  title: string,
  /** The image `body.image` names (a catalog image, or a snapshot or backup), looked up by the caller. */
  image: Image | undefined,
): { multiple: boolean; machines: NewMachine[] } {
  const invalid = (field: string) =>
    unprocessable(`You specified an invalid ${field} for ${title} creation.`);
  const required = (field: string) => unprocessable(`You must specify a ${field} for ${title} creation.`);

  const multiple = body.names !== undefined && body.names !== null;
  const names = multiple ? (body.names as string[]) : body.name !== undefined ? [body.name] : [];
  if (names.length === 0) throw required(multiple ? 'names' : 'name');
  if (names.length > MAX_NAMES) {
    throw unprocessable(`You may only create up to ${MAX_NAMES} ${title}s at a time (names).`);
  }
  for (const name of names) {
    if (!namePattern.test(name)) {
      throw unprocessable(
        'Name Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -), at most 255',
      );
    }
  }

  if (body.size === undefined || body.size === '') throw required('size');
  const size = findSize(body.size);
  if (!size) throw invalid('size');
  if (body.image === undefined || body.image === '') throw required('image');
  if (!image) throw invalid('image');

  let regionSlug: string;
  if (body.region === undefined || body.region === '') {
    // A snapshot or backup exists in one region: a machine made from it goes there.
    const preferred = image.public ? DEFAULT_REGION : (image.regions[0] as string);
    regionSlug = size.regions.includes(preferred) ? preferred : (size.regions[0] as string);
  } else {
    // A city prefix ("nyc") deploys into the first of its regions that offers the size and image, as the provider does.
    const region =
      findRegion(body.region) ??
      regions.find(
        (r) =>
          /^[a-z]{3}$/.test(body.region as string) &&
          r.slug.startsWith(body.region as string) &&
          size.regions.includes(r.slug) &&
          image.regions.includes(r.slug),
      );
    if (!region) throw invalid('region');
    regionSlug = region.slug;
  }
  if (!image.regions.includes(regionSlug)) {
    throw unprocessable(`The image ${image.id} is not available in region ${regionSlug}.`);
  }
  if (!size.regions.includes(regionSlug)) {
    throw unprocessable(
      `The size ${size.slug} is not available in region ${regionSlug}; choose another size or region.`,
    );
  }

  const tags = [...new Set(body.tags ?? [])];
  for (const tag of tags) if (!tagPattern.test(tag)) throw invalid(`tag (${JSON.stringify(tag)})`);

  const userData = body.user_data ?? null;
  if (userData !== null && Buffer.byteLength(userData, 'utf8') > MAX_USER_DATA) {
    throw unprocessable('user_data must be at most 64 KiB.');
  }
  const vpcUuid = body.vpc_uuid ? body.vpc_uuid.toLowerCase() : defaultVpcUuid(regionSlug);
  if (!uuidPattern.test(vpcUuid)) throw invalid('vpc_uuid');

  // `features` mirror the flags asked for, as the provider reports them.
  const features = [
    body.backups && 'backups',
    body.ipv6 && 'ipv6',
    body.monitoring && 'monitoring',
    body.private_networking && 'private_networking',
    body.with_droplet_agent && 'droplet_agent',
  ].filter((f): f is string => typeof f === 'string');

  return {
    multiple,
    machines: names.map((name) => ({
      name,
      region: regionSlug,
      size: size.slug,
      imageId: image.id,
      tags,
      features,
      ipv6: body.ipv6 === true,
      vpcUuid,
      userData,
      sshKeyIds: [],
      volumeIds: [],
    })),
  };
}
