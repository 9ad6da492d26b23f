import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { HttpError } from '../../platform/errors.js';
import { baseFileName, drainFile } from '../../platform/multipart.js';

/** A refusal that carries its HTTP status (413 for an oversized file) through Mercurius' error formatter. */
export class UploadRefused extends HttpError {
  constructor(message: string, statusCode = 200) {
    super(statusCode);
    this.message = message;
  }
}

/** A client's file name as profiles keeps it (`<userId>-<name>`): the platform's one base-name rule. */
export const safeFileName = baseFileName;

// file-type needs at most this many leading bytes to recognise any format it knows.
const sniffBytes = 4100;

export interface CheckedFile {
  contentType: string;
  /** The whole file again (the sniffed head first), failing with 413 once it passes the size limit. */
  body: Readable;
}

/**
 * Reads just enough of the upload to judge its type from its bytes, then hands back a stream of the whole file
 * that errors as soon as it passes `maxBytes`, so the store discards it instead of keeping a truncated copy.
 */
export async function checkImage(
  source: Readable,
  options: { maxBytes: number; allowedTypes: string[] },
): Promise<CheckedFile> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < sniffBytes) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  const tooLarge = () =>
    new UploadRefused(`error uploading file: the file is larger than ${options.maxBytes} bytes`, 413);
  const headBuffer = Buffer.concat(head);
  if (headBuffer.length > options.maxBytes) {
    drainFile(source);
    throw tooLarge();
  }
  const type = headBuffer.length > 0 ? await fileTypeFromBuffer(headBuffer) : undefined;
  if (!type || !options.allowedTypes.includes(type.mime)) {
    drainFile(source);
    const found = headBuffer.length === 0 ? 'an empty file' : (type?.mime ?? 'an unrecognised format');
    throw new UploadRefused(
      `error uploading file: unsupported file type ${found}; accepted: ${options.allowedTypes.join(', ')}`,
    );
  }
  async function* whole() {
    let total = headBuffer.length;
    yield headBuffer;
    if (ended) return;
    while (true) {
      const next = await chunks.next();
      if (next.done) return;
      total += next.value.length;
      if (total > options.maxBytes) {
        drainFile(source);
        throw tooLarge();
      }
      yield next.value;
    }
  }
  return { contentType: type.mime, body: Readable.from(whole(), { objectMode: false }) };
}
