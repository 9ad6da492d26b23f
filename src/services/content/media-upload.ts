import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileTypeFromFile } from 'file-type';
import { BodyTooLarge, baseFileName, drainFile, multipartParser, spoolTo } from '../../platform/multipart.js';
import { restError } from './errors.js';
import { imageSize } from './image-size.js';

/**
 * An upload's body, not read yet: the route reads it once it knows the caller may upload (a refused one is never
 * read, see drainAfterAnswer). Its stream is non-enumerable, so hooks that walk bodies skip it.
 */
export class UploadBody {
  declare readonly stream: Readable;
  /** Whether the whole body was read. */
  done = false;
  constructor(stream: Readable) {
    Object.defineProperty(this, 'stream', { value: stream, enumerable: false });
    Object.defineProperty(this, 'done', { value: false, enumerable: false, writable: true });
  }
}

/** An upload written to the request's temporary folder. */
export interface SpooledFile {
  name: string;
  path: string;
  size: number;
}

/** The upload too large for CONTENT_MAX_UPLOAD_BYTES, in the words of core's check_upload_size. */
export const fileTooBig = (maxBytes: number) =>
  restError(
    413,
    'rest_upload_file_too_big',
    `This file is too big. Files must be less than ${Math.floor(maxBytes / 1024)} KB in size.`,
  );

const noData = () => restError(400, 'rest_upload_no_data', 'No data supplied.');

/** Reads the raw body (core's upload_from_data) into `folder`, refusing it once it passes `maxBytes`. */
export async function readRawUpload(body: UploadBody, folder: string, maxBytes: number) {
  const file = path.join(folder, 'file');
  try {
    const size = await spoolTo(body.stream, file, maxBytes);
    body.done = true;
    return { path: file, size };
  } catch (error) {
    if (error instanceof BodyTooLarge) throw fileTooBig(maxBytes);
    throw noData();
  }
}

/** The fields a media form may carry besides its file, and how long each may be. */
const formLimits = { fields: 100, fieldSize: 1024 * 1024, files: 10 };
/** What a form may hold besides its file: the fields, the other parts' headers. */
export const formOverhead = 2 * 1024 * 1024;

/**
 * A multipart/form-data body, streamed: the first part named `file` goes to `folder` (at most `maxBytes`), other
 * files are read past, text fields are kept. The whole body may hold at most `maxBytes` plus the fields' limit.
 */
export function readMediaForm(
  body: UploadBody,
  headers: Record<string, unknown>,
  folder: string,
  maxBytes: number,
): Promise<{ file?: SpooledFile; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: SpooledFile | undefined;
    let writing: Promise<unknown> = Promise.resolve();
    let failed = false;
    const source = body.stream;
    const parser = (() => {
      try {
        return multipartParser(headers, { ...formLimits, fileSize: maxBytes + 1 });
      } catch {
        return undefined;
      }
    })();
    if (!parser) {
      reject(noData());
      return;
    }
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      source.unpipe(parser as never);
      parser.destroy();
      reject(error);
    };
    let received = 0;
    const bodyLimit = maxBytes + formOverhead;
    source.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > bodyLimit) fail(fileTooBig(maxBytes));
    });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (failed || name !== 'file' || file) {
        drainFile(stream);
        return;
      }
      const target = path.join(folder, 'file');
      const spooled: SpooledFile = { name: info.filename ?? '', path: target, size: 0 };
      file = spooled;
      writing = spoolTo(stream, target, maxBytes).then(
        (size) => {
          spooled.size = size;
        },
        (error) => {
          drainFile(stream);
          fail(error instanceof BodyTooLarge ? fileTooBig(maxBytes) : noData());
        },
      );
    });
    parser.on('error', () => fail(noData()));
    parser.on('close', () => {
      writing.then(() => {
        if (failed) return;
        body.done = true;
        resolve({ file, fields });
      });
    });
    source.on('error', () => fail(noData()));
    source.pipe(parser);
  });
}

/** The file name of `attachment; filename="photo.png"` (or filename*=UTF-8''…), as core's get_filename_from_disposition. */
export function filenameFromDisposition(header: string): string | undefined {
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {}
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name || undefined;
}

/** sanitize_file_name, simplified: a base name of letters, digits, dots, dashes and underscores. */
export function safeName(name: string) {
  const cleaned = baseFileName(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, '-')
    .replace(/[^A-Za-z0-9._-]/g, '')
    .replace(/^[.-]+/, '');
  return cleaned.slice(-200);
}

/** Core's default allowed upload types (get_allowed_mime_types), by extension; a few common ones. */
const allowed: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export interface CheckedUpload {
  name: string;
  mime: string;
  width?: number;
  height?: number;
}

/**
 * The type is judged by the extension, and images must also be that image by their bytes (as core's
 * wp_check_filetype_and_ext). Refused types are 400 `rest_upload_sideload_error` (core answers 500).
 */
export async function checkUpload(name: string, file: string): Promise<CheckedUpload> {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  let mime = name.includes('.') ? allowed[ext] : undefined;
  const sniffed = await fileTypeFromFile(file);
  if (mime?.startsWith('image/') && sniffed?.mime !== mime)
    mime =
      sniffed?.mime.startsWith('image/') && Object.values(allowed).includes(sniffed.mime)
        ? sniffed.mime
        : undefined;
  if (!mime)
    throw restError(
      400,
      'rest_upload_sideload_error',
      'Sorry, you are not allowed to upload this file type.',
    );
  const size = mime.startsWith('image/') ? await imageSizeOfFile(file, mime) : undefined;
  return { name, mime, ...size };
}

/** imageSize over a file: its first 64 KiB, and for a JPEG whose frame header lies further, the segments to it. */
async function imageSizeOfFile(file: string, mime: string) {
  const handle = await open(file);
  try {
    const read = async (at: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, at);
      return buffer.subarray(0, bytesRead);
    };
    return await imageSize(await read(0, 64 * 1024), mime, read);
  } finally {
    await handle.close();
  }
}
