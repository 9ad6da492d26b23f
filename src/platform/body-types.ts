import type { FastifyInstance } from 'fastify';
import { clientError } from './errors.js';
import { parseFormBody } from './form-body.js';
import { drainFile, multipartParser } from './multipart.js';

/**
 * The body types a surface takes besides JSON (which `createApp` parses): the one form parser, PHP-style
 * (`brackets`, WordPress) or flat (json-server), and the one refusal of every other type.
 */
export function acceptForms(app: FastifyInstance, options: { brackets: boolean }) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, parseFormBody(body as string, options)),
  );
}

/** Every other body type, Fastify's default `text/plain` included, is 415 naming what the surface takes. */
export function refuseOtherTypes(app: FastifyInstance, accepted: string) {
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', (request, _payload, done) => {
    const type = request.headers['content-type']?.split(';')[0]?.trim() || 'none';
    done(clientError(415, `Unsupported Media Type: ${type}; send ${accepted}`), undefined);
  });
}

/**
 * multipart/form-data read as a form (PHP's `$_POST`): its text fields, PHP-style when `brackets`; file parts are
 * read past (routes that take files, like content's media, read their own body). Limits as the upload routes'.
 */
export function acceptMultipartFields(app: FastifyInstance, options: { brackets: boolean }) {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    let parser: ReturnType<typeof multipartParser>;
    try {
      parser = multipartParser(request.headers, {
        fields: 100,
        fieldSize: 1024 * 1024,
        files: 10,
        fileSize: 0,
      });
    } catch {
      return done(clientError(400, 'Malformed multipart/form-data body'), undefined);
    }
    const pairs = new URLSearchParams();
    let finished = false;
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      if (error) done(clientError(400, `Malformed multipart/form-data body: ${error.message}`), undefined);
      else done(null, parseFormBody(pairs.toString(), options));
    };
    parser.on('field', (name, value) => pairs.append(name, value));
    parser.on('file', (_name, stream) => drainFile(stream));
    parser.on('error', finish);
    parser.on('close', () => finish());
    payload.pipe(parser);
  });
}
