import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { Upload } from 'graphql-upload-minimal';
import { HttpError } from '../../platform/errors.js';
import { parseJsonBody } from '../../platform/json-body.js';
import { type Busboy, drainFile, multipartParser } from '../../platform/multipart.js';

/**
 * The GraphQL multipart request spec (operations, then map, then files), after graphql-upload-minimal's
 * processRequest but with every parser error handled: a malformed part header there emits a second, unhandled
 * 'error' that can stall the request or crash the process.
 */

/** A malformed or oversized multipart request (400, 413), worded by the GraphQL error handler. */
export class MultipartError extends HttpError {
  constructor(message: string, statusCode = 400) {
    super(statusCode);
    this.message = message;
  }
}

export interface MultipartOptions {
  /** Per file: larger files are cut off, and their stream fails with 413. */
  maxFileSize: number;
  maxFiles: number;
  /** For the `operations` and `map` parts. */
  maxFieldSize: number;
}

/** graphql-upload-minimal's declarations leave out the methods its parser uses. */
type PendingUpload = Upload & { file?: unknown; resolve(file: unknown): void; reject(error: Error): void };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const forbidden = new Set(['__proto__', 'constructor', 'prototype']);

/** Puts `value` at a dotted path such as `variables.input.file` inside the operations. */
function setAtPath(target: unknown, path: string, value: unknown) {
  const props = path.split('.');
  const last = props.pop() as string;
  let node = target as Record<string, unknown>;
  for (const prop of [...props, last]) {
    if (prop === '' || forbidden.has(prop)) throw new MultipartError(`map: invalid path "${path}"`);
  }
  for (const prop of props) {
    const next = node[prop];
    if (next === null || typeof next !== 'object')
      throw new MultipartError(`map: path "${path}" is not in operations`);
    node = next as Record<string, unknown>;
  }
  node[last] = value;
}

/**
 * Copies a file part to a temporary file (size already bounded by the parser's limit, which truncates) and
 * opens a fresh stream of it for each reader, once the copy is complete.
 */
function spool(stream: Readable, spools: string[]) {
  // Named with the process id, so a folder a killed process left is removed at the next start (removeStaleSpools).
  const dir = mkdtempSync(path.join(tmpdir(), `backlot-upload-${process.pid}-`));
  spools.push(dir);
  const file = path.join(dir, 'file');
  const written = pipeline(stream, createWriteStream(file));
  written.catch(() => {});
  return {
    open(): Readable {
      const copy = new PassThrough();
      written.then(
        () => pipeline(createReadStream(file), copy).catch((error) => copy.destroy(error)),
        (error: Error) => copy.destroy(error),
      );
      return copy;
    },
  };
}

/** Removes the temporary copies of files used at several paths. */
export function removeSpools(spools: string[]) {
  for (const dir of spools.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function processMultipart(
  req: NodeJS.ReadableStream & { headers: Record<string, unknown> },
  options: MultipartOptions,
  files: Readable[] = [],
  spools: string[] = [],
) {
  return new Promise<unknown>((resolve, reject) => {
    let parser: Busboy;
    try {
      parser = multipartParser(req.headers, {
        fieldSize: options.maxFieldSize,
        // operations, map, and each mapped file that busboy reads as a field (see the 'field' handler).
        fields: 2 + options.maxFiles,
        fileSize: options.maxFileSize,
        files: options.maxFiles,
      });
    } catch (error) {
      reject(new MultipartError(`malformed multipart request: ${(error as Error).message}`));
      return;
    }
    let operations: unknown;
    let map: Map<string, PendingUpload> | undefined;
    let failed: Error | undefined;
    const openStreams = new Set<Readable>();
    const pathCounts = new Map<string, number>();

    const fail = (error: Error) => {
      if (failed) return;
      failed = error;
      reject(error);
      for (const stream of openStreams) drainFile(stream);
      if (map) for (const upload of map.values()) if (!upload.file) upload.reject(error);
      req.unpipe(parser as never);
      parser.destroy();
      // Drain what the client still sends so the response can be delivered.
      setImmediate(() => req.resume());
    };

    parser.on('field', (name, value, { valueTruncated, encoding, mimeType }) => {
      if (failed) return;
      if (map) {
        // After the map only files may come. busboy reads a part sent with filename="" (or none) as a field
        // unless its type is application/octet-stream: a mapped one is that file, with an empty name, which
        // the resolver refuses with its own message, as for an octet-stream part.
        const upload = map.get(name);
        if (!upload || upload.file) {
          fail(new MultipartError("only the 'operations' and 'map' parts are allowed"));
          return;
        }
        Object.assign(upload, { toJSON: () => `(the uploaded file '${name}')` });
        upload.resolve({
          fieldName: name,
          filename: '',
          mimetype: mimeType,
          encoding,
          createReadStream: () => Readable.from([Buffer.from(value)]),
        });
        return;
      }
      if (valueTruncated) {
        fail(new MultipartError(`the '${name}' part is larger than ${options.maxFieldSize} bytes`, 413));
        return;
      }
      if (name === 'operations') {
        try {
          operations = parseJsonBody(value);
        } catch {
          fail(new MultipartError("the 'operations' part is not valid JSON"));
          return;
        }
        if (!isObject(operations) && !Array.isArray(operations)) {
          fail(new MultipartError("the 'operations' part must be a JSON object or array"));
        }
      } else if (name === 'map') {
        if (operations === undefined) {
          fail(new MultipartError("misordered parts: 'map' must follow 'operations'"));
          return;
        }
        let parsed: unknown;
        try {
          parsed = parseJsonBody(value);
        } catch {
          fail(new MultipartError("the 'map' part is not valid JSON"));
          return;
        }
        if (!isObject(parsed)) {
          fail(new MultipartError("the 'map' part must be a JSON object of arrays of paths"));
          return;
        }
        const entries = Object.entries(parsed);
        if (entries.length > options.maxFiles) {
          fail(new MultipartError(`at most ${options.maxFiles} files can be uploaded at once`, 413));
          return;
        }
        map = new Map();
        for (const [fileName, paths] of entries) {
          if (Array.isArray(paths)) pathCounts.set(fileName, paths.length);
          if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string' || p.trim() === '')) {
            fail(new MultipartError(`map: the entry '${fileName}' must be an array of paths`));
            return;
          }
          const upload = new Upload() as PendingUpload;
          map.set(fileName, upload);
          try {
            for (const path of paths as string[]) setAtPath(operations, path, upload);
          } catch (error) {
            fail(error as Error);
            return;
          }
        }
        resolve(operations);
      } else {
        fail(new MultipartError(`unexpected part '${name}': expected 'operations', 'map', then files`));
      }
    });

    parser.on('file', (name, stream, { filename, encoding, mimeType }) => {
      stream.on('error', () => {});
      if (failed) {
        drainFile(stream);
        return;
      }
      if (!map) {
        drainFile(stream);
        fail(new MultipartError("misordered parts: files must follow 'map'"));
        return;
      }
      const upload = map.get(name);
      if (!upload || upload.file) {
        drainFile(stream);
        return;
      }
      openStreams.add(stream);
      files.push(stream);
      stream.on('end', () => openStreams.delete(stream));
      const info = { fieldName: name, filename, mimetype: mimeType, encoding };
      // Described in error messages (graphql-js prints a value through its toJSON), never as its internals.
      Object.assign(upload, { toJSON: () => `(the uploaded file '${name}')` });
      if ((pathCounts.get(name) ?? 0) > 1) {
        // One file at several paths: each use reads its own copy, spooled once to a temporary file.
        const spooled = spool(stream, spools);
        upload.resolve({ ...info, createReadStream: () => spooled.open() });
        return;
      }
      let taken = false;
      upload.resolve({
        ...info,
        createReadStream() {
          if (taken) throw new Error(`the file '${name}' was already read`);
          taken = true;
          return stream;
        },
      });
    });

    parser.on('filesLimit', () =>
      fail(new MultipartError(`at most ${options.maxFiles} files can be uploaded at once`, 413)),
    );
    parser.on('fieldsLimit', () =>
      fail(new MultipartError("only the 'operations' and 'map' parts are allowed")),
    );
    parser.on('error', (error) => fail(new MultipartError(`malformed multipart request: ${error.message}`)));
    parser.on('close', () => {
      if (failed) return;
      if (operations === undefined) return fail(new MultipartError("the 'operations' part is missing"));
      if (!map) return fail(new MultipartError("the 'map' part is missing"));
      for (const [name, upload] of map) {
        if (!upload.file)
          upload.reject(new MultipartError(`the file part '${name}' named in 'map' was never sent`));
      }
    });
    req.on('error', (error) => fail(new MultipartError(`the request broke off: ${error.message}`)));
    req.pipe(parser);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    graphqlUploads?: Readable[];
  }
}

/**
 * Lets Mercurius' routes on `app` take multipart requests: the parsed operations become the body and each file
 * an Upload value. Call it on the instance that registers Mercurius (it is not encapsulated on purpose).
 */
export function acceptMultipart(app: FastifyInstance, options: MultipartOptions) {
  app.addContentTypeParser('multipart/form-data', (request, _payload, done) => {
    request.graphqlUploads = [];
    done(null);
  });
  app.addHook('preValidation', async (request, reply) => {
    if (!request.graphqlUploads) return;
    const spools: string[] = [];
    // 'close' comes once the answer is sent or the connection is gone, whichever way the request ended.
    reply.raw.once('close', () => removeSpools(spools));
    request.body = await processMultipart(request.raw, options, request.graphqlUploads, spools);
  });
  // Files a resolver did not read (or stopped reading) are drained, and the answer waits until the client
  // finished sending: answering earlier would cut it off mid-upload.
  app.addHook('onSend', async (request) => {
    if (!request.graphqlUploads) return;
    for (const stream of request.graphqlUploads) drainFile(stream);
    const raw = request.raw;
    if (raw.readableEnded || raw.destroyed) return;
    await new Promise<void>((resolve) => {
      raw.once('end', resolve);
      raw.once('close', resolve);
      raw.resume();
    });
  });
}
