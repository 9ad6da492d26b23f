import type { FastifyInstance } from 'fastify';
import { clientError } from './errors.js';
import { parseFormBody } from './form-body.js';

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
