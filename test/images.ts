import sharp from 'sharp';

/**
 * A deterministic test picture: a colour gradient of `width`×`height` (red across, green down, a blue ripple), so
 * crops and resizes give different pixels at each edge.
 */
export function gradient(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = Math.floor((x * 255) / width);
      pixels[i + 1] = Math.floor((y * 255) / height);
      pixels[i + 2] = ((x + y) * 7) % 256;
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/** A 640×480 JPEG with the EXIF fields core's wp_read_image_metadata reads. */
export const exifPhoto = () =>
  gradient(640, 480)
    .jpeg()
    .withExif({
      IFD0: {
        Artist: 'Ann Example',
        Copyright: '(c) 2024 Ann & Co',
        Model: 'Camera X100',
        ImageDescription: 'A test picture',
      },
      IFD2: {
        FNumber: '28/10',
        ExposureTime: '1/250',
        ISOSpeedRatings: '200',
        FocalLength: '50/1',
        DateTimeDigitized: '2024:01:02 03:04:05',
      },
    })
    .toBuffer();

/**
 * `jpeg` with an IPTC block (a Photoshop APP13 segment after the start marker), from `[dataset, value]` pairs of
 * record 2 (`[105, 'Headline']`, `[25, 'keyword']`…): sharp writes no IPTC of its own.
 */
export function withIptc(jpeg: Buffer, datasets: [number, string][]) {
  const records = Buffer.concat(
    datasets.map(([dataset, value]) => {
      const bytes = Buffer.from(value, 'utf8');
      const head = Buffer.from([0x1c, 2, dataset, bytes.length >> 8, bytes.length & 0xff]);
      return Buffer.concat([head, bytes]);
    }),
  );
  const padded = records.length % 2 ? Buffer.concat([records, Buffer.alloc(1)]) : records;
  const size = Buffer.alloc(4);
  size.writeUInt32BE(records.length);
  const resource = Buffer.concat([Buffer.from('8BIM'), Buffer.from([4, 4, 0, 0]), size, padded]);
  const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xed]), length, payload, jpeg.subarray(2)]);
}

/** A `width`×`height` 24-bit BMP (sharp writes none), its pixels a repeating byte pattern. */
export function bmp(width: number, height: number) {
  const row = Math.ceil((width * 3) / 4) * 4;
  const file = Buffer.alloc(54 + row * height);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(row * height, 34);
  for (let i = 54; i < file.length; i++) file[i] = i % 251;
  return file;
}
