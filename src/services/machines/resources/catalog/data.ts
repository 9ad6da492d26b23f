import { createHash } from 'node:crypto';

/** The fixed catalog: regions, sizes and distribution images, modelled on the real provider's basic offer. */

export interface Size {
  slug: string;
  memory: number;
  vcpus: number;
  disk: number;
  transfer: number;
  price_monthly: number;
  price_hourly: number;
  regions: string[];
  available: boolean;
  description: string;
}

export interface Region {
  name: string;
  slug: string;
  features: string[];
  available: boolean;
  sizes: string[];
}

export interface Image {
  id: number;
  name: string;
  distribution: string;
  slug: string | null;
  public: boolean;
  regions: string[];
  created_at: string;
  min_disk_size: number;
  type: string;
  size_gigabytes: number;
  description: string;
  tags: string[];
  status: string;
  error_message: string;
}

const regionNames: [string, string][] = [
  ['nyc1', 'New York 1'],
  ['nyc3', 'New York 3'],
  ['sfo3', 'San Francisco 3'],
  ['ams3', 'Amsterdam 3'],
  ['fra1', 'Frankfurt 1'],
  ['lon1', 'London 1'],
  ['sgp1', 'Singapore 1'],
  ['tor1', 'Toronto 1'],
  ['blr1', 'Bangalore 1'],
  ['syd1', 'Sydney 1'],
];
const regionSlugs = regionNames.map(([slug]) => slug);

/** The smallest size is not offered everywhere, so "size not offered in this region" can be tried. */
const smallestSizeRegions = regionSlugs.filter((slug) => slug !== 'blr1' && slug !== 'syd1');

const sizeRows: [string, number, number, number, number, number, number][] = [
  // slug, memory MB, vcpus, disk GB, transfer TB, monthly, hourly
  ['s-1vcpu-512mb-10gb', 512, 1, 10, 0.5, 4, 0.00595],
  ['s-1vcpu-1gb', 1024, 1, 25, 1, 6, 0.00893],
  ['s-1vcpu-2gb', 2048, 1, 50, 2, 12, 0.01786],
  ['s-2vcpu-2gb', 2048, 2, 60, 3, 18, 0.02679],
  ['s-2vcpu-4gb', 4096, 2, 80, 4, 24, 0.03571],
  ['s-4vcpu-8gb', 8192, 4, 160, 5, 48, 0.07143],
  ['s-8vcpu-16gb', 16384, 8, 320, 6, 96, 0.14286],
];

export const sizes: Size[] = sizeRows.map(([slug, memory, vcpus, disk, transfer, monthly, hourly]) => ({
  slug,
  memory,
  vcpus,
  disk,
  transfer,
  price_monthly: monthly,
  price_hourly: hourly,
  regions: slug === 's-1vcpu-512mb-10gb' ? smallestSizeRegions : regionSlugs,
  available: true,
  description: 'Basic',
}));

const regionFeatures = ['backups', 'ipv6', 'metadata', 'install_agent', 'storage', 'image_transfer'];

export const regions: Region[] = regionNames.map(([slug, name]) => ({
  name,
  slug,
  features: regionFeatures,
  available: true,
  sizes: sizes.filter((s) => s.regions.includes(slug)).map((s) => s.slug),
}));

const imageRows: [number, string, string, string, number, number, string][] = [
  // id, slug, distribution, name, min disk, size GB, created
  [160_000_001, 'ubuntu-24-04-x64', 'Ubuntu', '24.04 (LTS) x64', 7, 2.36, '2024-04-25T15:58:31Z'],
  [160_000_002, 'ubuntu-22-04-x64', 'Ubuntu', '22.04 (LTS) x64', 7, 2.21, '2022-04-21T16:10:22Z'],
  [160_000_003, 'ubuntu-20-04-x64', 'Ubuntu', '20.04 (LTS) x64', 7, 1.92, '2020-04-23T17:43:24Z'],
  [160_000_004, 'debian-12-x64', 'Debian', '12 x64', 7, 0.99, '2023-06-12T16:22:43Z'],
  [160_000_005, 'debian-11-x64', 'Debian', '11 x64', 7, 0.92, '2021-08-16T17:01:08Z'],
  [160_000_006, 'fedora-40-x64', 'Fedora', '40 x64', 7, 0.95, '2024-04-24T14:00:01Z'],
  [160_000_007, 'centos-stream-9-x64', 'CentOS', 'Stream 9 x64', 10, 1.33, '2022-03-02T19:38:01Z'],
  [160_000_008, 'rockylinux-9-x64', 'Rocky Linux', '9 x64', 10, 1.12, '2022-07-18T20:05:49Z'],
  // The provider's document lists no AlmaLinux distribution, so FreeBSD takes the ninth place.
  [160_000_009, 'freebsd-14-x64-ufs', 'FreeBSD', '14.1 ufs x64', 20, 1.41, '2024-06-05T14:12:44Z'],
];

export const images: Image[] = imageRows.map(([id, slug, distribution, name, minDisk, gb, created]) => ({
  id,
  name,
  distribution,
  slug,
  public: true,
  regions: regionSlugs,
  created_at: created,
  min_disk_size: minDisk,
  type: 'base',
  size_gigabytes: gb,
  description: `${distribution} ${name}`,
  tags: [],
  status: 'available',
  error_message: '',
}));

export interface Kernel {
  id: number;
  name: string;
  version: string;
}

/** Kernels a machine may switch to (`change_kernel`); machines start on the image's internal kernel (null). */
export const kernels: Kernel[] = [
  [7515, 'DigitalOcean GrubLoader v0.2 (20160714)', '2016.07.13-DigitalOcean_loader_Ubuntu'],
  [8125, 'Ubuntu 24.04 x64 vmlinuz-6.8.0-31-generic', '6.8.0-31-generic'],
  [8126, 'Ubuntu 22.04 x64 vmlinuz-5.15.0-107-generic', '5.15.0-107-generic'],
  [8127, 'Debian 12 x64 vmlinuz-6.1.0-21-amd64', '6.1.0-21-amd64'],
].map(([id, name, version]) => ({ id: id as number, name: name as string, version: version as string }));

export const findKernel = (id: number) => kernels.find((k) => k.id === id);

export const findRegion = (slug: string) => regions.find((r) => r.slug === slug);
export const findSize = (slug: string) => sizes.find((s) => s.slug === slug);

/** Images are named by slug or by numeric id (as a number or a string of digits). */
export function findImage(ref: string | number): Image | undefined {
  if (typeof ref === 'number' || /^\d+$/.test(ref)) return images.find((i) => i.id === Number(ref));
  return images.find((i) => i.slug === ref);
}

/** Each region's default VPC: a stable UUID derived from its slug. */
export function defaultVpcUuid(regionSlug: string): string {
  const h = createHash('sha256').update(`backlot-vpc:${regionSlug}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const regionIndex = (slug: string) => Math.max(0, regionSlugs.indexOf(slug));
