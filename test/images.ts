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
