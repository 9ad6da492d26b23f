import type { DomainRow, RecordRow } from './store.js';

const hostTypes = new Set(['CNAME', 'MX', 'NS', 'SRV']);

export function presentRecord(r: RecordRow) {
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    data: r.data,
    priority: r.priority,
    port: r.port,
    ttl: r.ttl,
    weight: r.weight,
    flags: r.flags,
    tag: r.tag,
  };
}

/** The zone in BIND's master-file syntax, as the provider shows it: names fully qualified, one record a line. */
export function zoneFile(domain: DomainRow, records: RecordRow[]): string {
  const origin = `${domain.name}.`;
  const fqdn = (name: string) => (name === '@' ? origin : `${name}.${origin}`);
  const host = (data: string) => (data === '@' ? origin : `${data}.`);
  const lines = [`$ORIGIN ${origin}`, `$TTL ${domain.ttl}`];
  for (const r of records) {
    let rdata: string;
    if (r.type === 'SOA')
      rdata = `ns1.digitalocean.com. hostmaster.${origin} ${domain.serial} 10800 3600 604800 1800`;
    else if (r.type === 'MX') rdata = `${r.priority} ${host(r.data)}`;
    else if (r.type === 'SRV') rdata = `${r.priority} ${r.weight} ${r.port} ${host(r.data)}`;
    else if (r.type === 'CAA') rdata = `${r.flags} ${r.tag} ${JSON.stringify(r.data)}`;
    else if (r.type === 'TXT') rdata = JSON.stringify(r.data);
    else rdata = hostTypes.has(r.type) ? host(r.data) : r.data;
    lines.push(`${fqdn(r.name)} ${r.ttl} IN ${r.type} ${rdata}`);
  }
  return `${lines.join('\n')}\n`;
}

export function presentDomain(domain: DomainRow, records: RecordRow[]) {
  return { name: domain.name, ttl: domain.ttl, zone_file: zoneFile(domain, records) };
}
