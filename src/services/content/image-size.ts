/** Reads `length` bytes of the file at `at` (fewer at its end). */
export type ReadAt = (at: number, length: number) => Promise<Buffer>;

/**
 * Width and height from an image's header (PNG, GIF, JPEG, WebP, BMP), as core's getimagesize gives them: from
 * `buf`, the file's first bytes, and for a JPEG whose frame header lies past them, through `readAt`.
 */
export async function imageSize(
  buf: Buffer,
  mime: string,
  readAt?: ReadAt,
): Promise<{ width: number; height: number } | undefined> {
  try {
    if (mime === 'image/png' && buf.length >= 24)
      return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
    if (mime === 'image/gif' && buf.length >= 10)
      return { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) };
    if (mime === 'image/bmp' && buf.length >= 26)
      return { width: buf.readInt32LE(18), height: Math.abs(buf.readInt32LE(22)) };
    if (mime === 'image/webp' && buf.length >= 30) {
      const chunk = buf.toString('ascii', 12, 16);
      if (chunk === 'VP8X') return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3) };
      if (chunk === 'VP8 ')
        return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
      if (chunk === 'VP8L') {
        const bits = buf.readUInt32LE(21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
    }
    if (mime === 'image/jpeg') return await jpegSize(buf, readAt);
  } catch {
    // A truncated header: no dimensions, as getimagesize gives none.
  }
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker (a few bytes read at each one past `head`). */
async function jpegSize(head: Buffer, readAt?: ReadAt) {
  const at = async (offset: number) =>
    offset + 9 < head.length
      ? head.subarray(offset, offset + 9)
      : readAt
        ? readAt(offset, 9)
        : Buffer.alloc(0);
  let offset = 2;
  for (;;) {
    const bytes = await at(offset);
    if (bytes.length < 9 || bytes[0] !== 0xff) return undefined;
    const marker = bytes[1] as number;
    const length = bytes.readUInt16BE(2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) return { height: bytes.readUInt16BE(5), width: bytes.readUInt16BE(7) };
    offset += 2 + length;
  }
}
