import { createRequire } from 'node:module';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { restError } from './errors.js';
import { imageSize } from './image-size.js';

/** A parsed upload request: the file (if any) and the other form fields. Non-enumerable, so hooks that walk bodies skip the bytes. */
export class UploadBody {
  declare readonly file?: { name: string; type: string; data: Buffer };
  declare readonly fields: Record<string, string>;
  declare readonly raw?: Buffer;
  constructor(values: { file?: UploadBody['file']; fields?: Record<string, string>; raw?: Buffer }) {
    Object.defineProperty(this, 'file', { value: values.file, enumerable: false });
    Object.defineProperty(this, 'fields', { value: values.fields ?? {}, enumerable: false });
    Object.defineProperty(this, 'raw', { value: values.raw, enumerable: false });
  }
}

interface Busboy extends NodeJS.WritableStream {
  on(event: 'field', listener: (name: string, value: string) => void): this;
  on(
    event: 'file',
    listener: (
      name: string,
      stream: NodeJS.ReadableStream,
      info: { filename: string; mimeType: string },
    ) => void,
  ): this;
  on(event: 'close', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}
// busboy arrives with graphql-upload-minimal and ships no type declarations.
const busboy = createRequire(import.meta.url)('busboy') as (options: object) => Busboy;

/** A multipart/form-data body: the part named `file` and the text fields. */
export function parseMultipart(contentType: string, body: Buffer): Promise<UploadBody> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: UploadBody['file'];
    let parser: Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType } });
    } catch {
      reject(restError(400, 'rest_upload_no_data', 'No data supplied.'));
      return;
    }
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (name === 'file' && !file)
          file = { name: info.filename ?? '', type: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('close', () => resolve(new UploadBody({ file, fields })));
    parser.on('error', () => reject(restError(400, 'rest_upload_no_data', 'No data supplied.')));
    parser.end(body);
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
  const base = path.posix.basename(name.replaceAll('\\', '/'));
  const cleaned = base
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
export async function checkUpload(name: string, data: Buffer): Promise<CheckedUpload> {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  let mime = name.includes('.') ? allowed[ext] : undefined;
  const sniffed = await fileTypeFromBuffer(data);
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
  const size = mime.startsWith('image/') ? imageSize(data, mime) : undefined;
  return { name, mime, ...size };
}
