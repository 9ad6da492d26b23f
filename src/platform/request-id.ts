import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const requestIdPattern = /^[\w.:-]{1,128}$/;

/**
 * How many ids are made at a time: one call for the random bytes, one pass to spell them and one string. Each id is
 * a slice of that string (V8 shares the characters), so an id kept somewhere keeps its batch's 4.6 kB with it.
 */
const batch = 128;
/** Random bytes for this many batches at a time: randomFillSync costs ~2 µs a call, whatever the size up to 16 kB. */
const randomBatches = 8;
const random = Buffer.alloc(16 * batch * randomBatches);
let randomUsed = randomBatches;
const spelled = Buffer.alloc(36 * batch, '-');
// Two hex digits are written as one 16-bit store; some pairs start at odd offsets, hence a DataView.
const pairs = new DataView(spelled.buffer, spelled.byteOffset, spelled.length);
const hexPairs = Uint16Array.from({ length: 256 }, (_, byte) => {
  const [first, second] = Buffer.from(byte.toString(16).padStart(2, '0'), 'latin1');
  return (first as number) | ((second as number) << 8);
});
/** Where each of a UUID's 16 bytes is spelled, in characters from the id's start (the dashes stay put). */
const pairAt = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
let ids = '';
let next = batch;

/** Spells the next `batch` random version 4 UUIDs (RFC 9562: version nibble 4, variant bits 10) into `ids`. */
function refill() {
  if (randomUsed === randomBatches) {
    randomFillSync(random);
    randomUsed = 0;
  }
  const first = 16 * batch * randomUsed++;
  for (let id = 0; id < batch; id++) {
    const from = first + id * 16;
    const to = id * 36;
    random[from + 6] = ((random[from + 6] as number) & 0x0f) | 0x40;
    random[from + 8] = ((random[from + 8] as number) & 0x3f) | 0x80;
    for (let i = 0; i < 16; i++)
      pairs.setUint16(to + (pairAt[i] as number), hexPairs[random[from + i] as number] as number, true);
  }
  ids = spelled.toString('latin1');
  next = 0;
}

/**
 * A random UUID (version 4), like crypto.randomUUID, but cut out of a batch spelled in advance: randomUUID builds
 * its string from 20 pieces, which every later use (header validation, the response head) must flatten again,
 * and that cost a few percent of posts' fastest answers.
 */
export function newRequestId(): string {
  if (next === batch) refill();
  const start = 36 * next++;
  return ids.slice(start, start + 36);
}

/** The client's x-request-id when it is a sane token, else a fresh UUID. */
export function requestIdOf(req: IncomingMessage) {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && requestIdPattern.test(given) ? given : newRequestId();
}
