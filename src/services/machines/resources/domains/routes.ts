import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, paginated, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import { presentDomain, presentRecord } from './present.js';
import { checkDomainName, checkIpAddress, checkRecord } from './rules.js';
import {
  DomainBody,
  DomainParams,
  domainList,
  domainOne,
  RecordBody,
  RecordParams,
  RecordsQuery,
  recordList,
  recordOne,
} from './schemas.js';
import {
  allRecords,
  deleteDomain,
  deleteRecord,
  findDomain,
  findRecord,
  insertDomain,
  insertRecord,
  listDomains,
  updateRecord,
} from './store.js';

const done = { 204: Type.Null({ description: 'Done' }), ...errorResponses };

function domainRoutes(app: TypedApp, db: Database, clock: Clock) {
  const tags = ['domains'];
  const load = async (name: string) => {
    const domain = await findDomain(db, name);
    if (!domain) throw notFound();
    return domain;
  };
  const loadRecord = async (params: { domain_name: string; domain_record_id: string }) => {
    const domain = await load(params.domain_name);
    const record = await findRecord(db, domain.name, Number(params.domain_record_id));
    if (!record) throw notFound();
    return record;
  };
  const show = async (name: string) => {
    const domain = await load(name);
    return { domain: presentDomain(domain, await allRecords(db, domain.name)) };
  };

  app.post(
    '/v2/domains',
    {
      config: { scopes: ['domain:create'] },
      schema: {
        tags,
        summary: 'Add a domain (its SOA and NS records, and an A record for ip_address)',
        body: DomainBody,
        response: { 201: domainOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const name = checkDomainName(request.body.name);
      const address = checkIpAddress(request.body.ip_address);
      if (!(await insertDomain(db, name, address, new Date(clock.now()))))
        throw unprocessable(`${name} already exists.`);
      reply.code(201);
      return show(name);
    },
  );
  app.get(
    '/v2/domains',
    {
      config: { scopes: ['domain:read'] },
      schema: {
        tags,
        summary: 'List domains, by name',
        querystring: CatalogQuery,
        response: { 200: domainList, ...errorResponses },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listDomains(db, p.perPage, p.offset);
      const domains = [];
      for (const d of rows) domains.push(presentDomain(d, await allRecords(db, d.name)));
      return { domains, links: pageLinks(request, total, p.page, p.perPage), meta: { total } };
    },
  );
  app.get(
    '/v2/domains/:domain_name',
    {
      config: { scopes: ['domain:read'] },
      schema: {
        tags,
        summary: 'Read a domain and its zone file',
        params: DomainParams,
        response: { 200: domainOne, ...errorResponses },
      },
    },
    async (request) => show(request.params.domain_name),
  );
  app.delete(
    '/v2/domains/:domain_name',
    {
      config: { scopes: ['domain:delete'] },
      schema: { tags, summary: 'Delete a domain and its records', params: DomainParams, response: done },
    },
    async (request, reply) => {
      await deleteDomain(db, (await load(request.params.domain_name)).name);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v2/domains/:domain_name/records',
    {
      config: { scopes: ['domain:read'] },
      schema: {
        tags,
        summary: 'List records (name is the full name, e.g. www.example.com; type filters)',
        params: DomainParams,
        querystring: RecordsQuery,
        response: { 200: recordList, ...errorResponses },
      },
    },
    async (request) => {
      const domain = await load(request.params.domain_name);
      const { name, type } = request.query;
      const fqdn = (n: string) => (n === '@' ? domain.name : `${n}.${domain.name}`);
      const wanted = (await allRecords(db, domain.name)).filter(
        (r) =>
          (type === undefined || r.type === type) &&
          (name === undefined || fqdn(r.name) === name.toLowerCase().replace(/\.$/, '')),
      );
      const { items, links, meta } = paginated(request, wanted, request.query);
      return { domain_records: items.map(presentRecord), links, meta };
    },
  );
  app.post(
    '/v2/domains/:domain_name/records',
    {
      config: { scopes: ['domain:create', 'domain:update'] },
      schema: {
        tags,
        summary: 'Add a record: A, AAAA, CAA, CNAME, MX, NS, SRV or TXT',
        params: DomainParams,
        body: RecordBody,
        response: { 201: recordOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const domain = await load(request.params.domain_name);
      const record = await insertRecord(db, domain.name, checkRecord(request.body), new Date(clock.now()));
      reply.code(201);
      return { domain_record: presentRecord(record) };
    },
  );
  app.get(
    '/v2/domains/:domain_name/records/:domain_record_id',
    {
      config: { scopes: ['domain:read'] },
      schema: {
        tags,
        summary: 'Read a record',
        params: RecordParams,
        response: { 200: recordOne, ...errorResponses },
      },
    },
    async (request) => ({ domain_record: presentRecord(await loadRecord(request.params)) }),
  );
  // The provider's PUT changes only the fields given, as PATCH does.
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/v2/domains/:domain_name/records/:domain_record_id',
      {
        config: { scopes: ['domain:update'] },
        schema: {
          tags,
          summary: 'Change a record (the fields given; an SOA record only its ttl)',
          params: RecordParams,
          body: RecordBody,
          response: { 200: recordOne, ...errorResponses },
        },
      },
      async (request) => {
        const record = await loadRecord(request.params);
        const changed = checkRecord(request.body ?? {}, record);
        return {
          domain_record: presentRecord(await updateRecord(db, record, changed, new Date(clock.now()))),
        };
      },
    );
  }
  app.delete(
    '/v2/domains/:domain_name/records/:domain_record_id',
    {
      config: { scopes: ['domain:delete', 'domain:update'] },
      schema: { tags, summary: 'Delete a record', params: RecordParams, response: done },
    },
    async (request, reply) => {
      const record = await loadRecord(request.params);
      if (record.type === 'SOA') throw unprocessable('The SOA record of a domain cannot be deleted.');
      await deleteRecord(db, record, new Date(clock.now()));
      return reply.code(204).send(null);
    },
  );
}

/** `/v2/domains`: DNS zones and their records. */
export const resource: Resource = { routes: (app, { db, clock }) => domainRoutes(app, db, clock) };
