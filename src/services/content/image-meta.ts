/**
 * wp_read_image_metadata: the EXIF and IPTC fields core keeps in `media_details.image_meta`. core passes the
 * result through wp_kses_post_deep, which turns every number into a string, so every value here is a string
 * (`"0"` when absent) but `keywords`. sharp hands over the raw EXIF (a TIFF structure) and IPTC blocks; the two
 * small readers below take only the tags core reads.
 */
export interface ImageMeta {
  aperture: string;
  credit: string;
  camera: string;
  caption: string;
  created_timestamp: string;
  copyright: string;
  focal_length: string;
  iso: string;
  shutter_speed: string;
  title: string;
  /** The number 1 once core has turned the picture upright (it sets it after the string conversion). */
  orientation: string | number;
  keywords: string[];
}

export const emptyImageMeta = (): ImageMeta => ({
  aperture: '0',
  credit: '',
  camera: '',
  caption: '',
  created_timestamp: '0',
  copyright: '',
  focal_length: '0',
  iso: '0',
  shutter_speed: '0',
  title: '',
  orientation: '0',
  keywords: [],
});

type ExifValue = string | number | number[];

/** Text as PHP's exif gives it: up to the first NUL; bytes that are not UTF-8 read as Latin-1 (core's utf8_encode). */
function text(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  const cut = end === -1 ? bytes : bytes.subarray(0, end);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(cut);
  } catch {
    return cut.toString('latin1');
  }
}

const exifTags = new Map<number, string>([
  [0x010e, 'ImageDescription'],
  [0x0110, 'Model'],
  [0x0112, 'Orientation'],
  [0x013b, 'Artist'],
  [0x8298, 'Copyright'],
  [0x829a, 'ExposureTime'],
  [0x829d, 'FNumber'],
  [0x8827, 'ISOSpeedRatings'],
  [0x9004, 'DateTimeDigitized'],
  [0x920a, 'FocalLength'],
  [0x9286, 'UserComment'],
  [0x9c9d, 'Author'],
]);
const typeSizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };

/** IFD0 and the Exif sub-IFD of an EXIF block (`Exif\0\0` and a TIFF header), as exif_read_data names them. */
export function readExif(block: Buffer): Record<string, ExifValue> {
  const out: Record<string, ExifValue> = {};
  const tiff = block.subarray(block.toString('latin1', 0, 6) === 'Exif\0\0' ? 6 : 0);
  if (tiff.length < 8) return out;
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const seen = new Set<number>();
  const walk = (ifd: number) => {
    if (seen.has(ifd) || ifd + 2 > tiff.length) return;
    seen.add(ifd);
    const count = u16(ifd);
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + i * 12;
      if (entry + 12 > tiff.length) return;
      const [tag, type, n] = [u16(entry), u16(entry + 2), u32(entry + 4)];
      if (tag === 0x8769) walk(u32(entry + 8));
      const name = exifTags.get(tag);
      const size = (typeSizes[type] ?? 0) * n;
      if (!name || size === 0) continue;
      const at = size <= 4 ? entry + 8 : u32(entry + 8);
      if (at + size > tiff.length) continue;
      const bytes = tiff.subarray(at, at + size);
      if (type === 2) out[name] = text(bytes).trim();
      else if (type === 5 || type === 10) out[name] = `${u32(at)}/${u32(at + 4)}`;
      else if (type === 3) {
        const values = Array.from({ length: n }, (_, k) => u16(at + 2 * k));
        out[name] = n === 1 ? (values[0] as number) : values;
      } else if (type === 4 || type === 9) out[name] = u32(at);
      else if (name === 'Author') out[name] = bytes.toString('utf16le').replace(/\0+$/, '');
      else if (name === 'UserComment') out[name] = text(bytes.subarray(8)).trim();
    }
  };
  try {
    walk(u32(4));
  } catch {
    // A truncated or damaged block: the tags read so far, as exif_read_data keeps what it could read.
  }
  return out;
}

/** iptcparse: the `2#NNN` datasets of an IPTC block (or a whole Photoshop APP13 segment). */
export function readIptc(block: Buffer): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let at = block.indexOf(0x1c);
  while (at !== -1 && at + 5 <= block.length && block[at] === 0x1c) {
    const key = `${block[at + 1]}#${String(block[at + 2]).padStart(3, '0')}`;
    const length = block.readUInt16BE(at + 3);
    if (length & 0x8000) break; // an extended dataset: core's fields are all short
    const value = block.subarray(at + 5, at + 5 + length);
    out[key] = [...(out[key] ?? []), text(Buffer.concat([value, Buffer.from([0])]))];
    at += 5 + length;
  }
  return out;
}

/** PHP's empty() on a string: '' and '0' are empty. */
const filled = (value: unknown): value is string | number =>
  value !== undefined && value !== '' && value !== '0' && value !== 0;

/** wp_exif_frac2dec: "28/10" is 2.8, a number stays, anything else is 0. */
function fraction(value: ExifValue): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return 0;
  const parts = value.split('/');
  if (parts.length !== 2) return Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : 0;
  const [n, d] = parts.map(Number) as [number, number];
  return Number.isFinite(n) && Number.isFinite(d) && d !== 0 ? n / d : 0;
}

/** PHP's (string) of a float: 14 significant digits. */
const phpNumber = (n: number) => String(Number(n.toPrecision(14)));

/** wp_kses_post on plain text: a bare `&` becomes `&amp;` (entities stay), tags go. */
const kses = (value: string) =>
  value.replace(/<[^>]*>/g, '').replace(/&(?!(#\d+|#x[\da-f]+|[a-z][a-z\d]*);)/gi, '&amp;');

/** The image_meta of an image, from its raw EXIF and IPTC blocks (core reads both from JPEGs only). */
export function imageMeta(exifBlock?: Buffer, iptcBlock?: Buffer): ImageMeta {
  const meta = emptyImageMeta();
  const iptc = iptcBlock ? readIptc(iptcBlock) : {};
  const first = (key: string) => iptc[key]?.[0];
  const title = first('2#105') || first('2#005');
  if (filled(title)) meta.title = title.trim();
  const legacyCaption = first('2#120');
  if (filled(legacyCaption)) {
    const caption = legacyCaption.trim();
    if (!meta.title && Buffer.byteLength(caption) < 80) meta.title = caption;
    meta.caption = caption;
  }
  const credit = filled(first('2#110')) ? first('2#110') : first('2#080');
  if (filled(credit)) meta.credit = credit.trim();
  const [date, time] = [first('2#055'), first('2#060')];
  if (filled(date) && filled(time)) meta.created_timestamp = iptcTimestamp(date, time);
  if (filled(first('2#116'))) meta.copyright = String(first('2#116')).trim();
  if (iptc['2#025']?.length) meta.keywords = iptc['2#025'];

  const exif = exifBlock ? readExif(exifBlock) : {};
  const description = exif.ImageDescription;
  if (filled(description)) {
    const value = String(description);
    if (!meta.title && Buffer.byteLength(value) < 80) meta.title = value.trim();
    if (!meta.caption && filled(exif.UserComment)) meta.caption = String(exif.UserComment).trim();
    if (!meta.caption) meta.caption = value.trim();
  }
  if (!meta.credit) {
    if (filled(exif.Artist)) meta.credit = String(exif.Artist).trim();
    else if (filled(exif.Author)) meta.credit = String(exif.Author).trim();
  }
  if (!meta.copyright && filled(exif.Copyright)) meta.copyright = String(exif.Copyright).trim();
  if (exif.FNumber !== undefined && filled(exif.FNumber as string))
    meta.aperture = phpNumber(Math.round(fraction(exif.FNumber) * 100) / 100);
  if (filled(exif.Model as string)) meta.camera = String(exif.Model).trim();
  if (meta.created_timestamp === '0' && filled(exif.DateTimeDigitized as string))
    meta.created_timestamp = exifTimestamp(String(exif.DateTimeDigitized));
  if (filled(exif.FocalLength as string)) meta.focal_length = phpNumber(fraction(exif.FocalLength as string));
  const iso = Array.isArray(exif.ISOSpeedRatings) ? exif.ISOSpeedRatings[0] : exif.ISOSpeedRatings;
  if (filled(iso)) meta.iso = String(iso).trim();
  if (filled(exif.ExposureTime as string))
    meta.shutter_speed = phpNumber(fraction(exif.ExposureTime as string));
  if (filled(exif.Orientation as number)) meta.orientation = String(exif.Orientation);
  for (const key of ['title', 'caption', 'credit', 'copyright', 'camera'] as const)
    meta[key] = kses(meta[key]);
  meta.keywords = meta.keywords.map(kses);
  return meta;
}

/** strtotime of EXIF's `YYYY:MM:DD HH:MM:SS` in UTC (the site's zone); "0" when it is not a date. */
function exifTimestamp(value: string): string {
  const [date = '', time = ''] = value.trim().split(' ');
  const ms = Date.parse(`${date.replaceAll(':', '-')}T${time}Z`);
  return Number.isNaN(ms) ? '0' : String(ms / 1000);
}

/** strtotime of IPTC's `CCYYMMDD` and `HHMMSS±HHMM`. */
function iptcTimestamp(date: string, time: string): string {
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(date.trim());
  const t = /^(\d{2})(\d{2})(\d{2})([+-]\d{2}\d{2})?$/.exec(time.trim());
  if (!d || !t) return '0';
  const zone = t[4] ? `${t[4].slice(0, 3)}:${t[4].slice(3)}` : 'Z';
  const ms = Date.parse(`${d[1]}-${d[2]}-${d[3]}T${t[1]}:${t[2]}:${t[3]}${zone}`);
  return Number.isNaN(ms) ? '0' : String(ms / 1000);
}
