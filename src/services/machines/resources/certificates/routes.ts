import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks } from '../../routing.js';
import { errorResponses } from '../../schemas.js';
import { presentCertificate } from './present.js';
import { checkCertificate } from './rules.js';
import {
  CertificateBody,
  CertificateParams,
  CertificatesQuery,
  certificateList,
  certificateOne,
} from './schemas.js';
import { deleteCertificate, findCertificate, insertCertificate, listCertificates } from './store.js';

/** `/v2/certificates`: custom (PEM) and Let's Encrypt certificates for load balancers and CDN endpoints. */
export const resource: Resource = {
  routes(app, { db, settings, clock }) {
    const tags = ['certificates'];
    const present = (row: Parameters<typeof presentCertificate>[0]) =>
      presentCertificate(row, settings.provisionMs, clock.now());
    const load = async (id: string) => {
      const row = await findCertificate(db, id);
      if (!row) throw notFound();
      return row;
    };
    app.post(
      '/v2/certificates',
      {
        config: { scopes: ['certificate:create'] },
        schema: {
          tags,
          summary: "Upload a custom certificate, or ask for a Let's Encrypt one (dns_names)",
          body: CertificateBody,
          response: { 201: certificateOne, ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await insertCertificate(db, checkCertificate(request.body), new Date(clock.now()));
        reply.code(201);
        return { certificate: present(row) };
      },
    );
    app.get(
      '/v2/certificates',
      {
        config: { scopes: ['certificate:read'] },
        schema: {
          tags,
          summary: 'List certificates, oldest first (name filters)',
          querystring: CertificatesQuery,
          response: { 200: certificateList, ...errorResponses },
        },
      },
      async (request) => {
        const p = page(request.query);
        const { rows, total } = await listCertificates(
          db,
          request.query.name || undefined,
          p.perPage,
          p.offset,
        );
        return {
          certificates: rows.map(present),
          links: pageLinks(request, total, p.page, p.perPage),
          meta: { total },
        };
      },
    );
    app.get(
      '/v2/certificates/:certificate_id',
      {
        config: { scopes: ['certificate:read'] },
        schema: {
          tags,
          summary: 'Read a certificate',
          params: CertificateParams,
          response: { 200: certificateOne, ...errorResponses },
        },
      },
      async (request) => ({ certificate: present(await load(request.params.certificate_id)) }),
    );
    app.delete(
      '/v2/certificates/:certificate_id',
      {
        config: { scopes: ['certificate:delete'] },
        schema: {
          tags,
          summary: 'Delete a certificate (409 while a load balancer or CDN endpoint uses it)',
          params: CertificateParams,
          response: { 204: Type.Null({ description: 'Done' }), ...errorResponses },
        },
      },
      async (request, reply) => {
        await deleteCertificate(db, (await load(request.params.certificate_id)).id);
        return reply.code(204).send(null);
      },
    );
  },
};
