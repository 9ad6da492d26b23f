import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { unprocessable } from '../../errors.js';
import type { CertificateBody } from './schemas.js';

export interface CertificateFields {
  name: string;
  type: 'custom' | 'lets_encrypt';
  dns_names: string[];
  /** Set for a custom certificate, from its leaf; a Let's Encrypt one gets them when stored. */
  not_after?: Date;
  sha1_fingerprint?: string;
  leaf_certificate?: string;
  certificate_chain?: string;
}

const dnsName = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

function parse(pem: string, what: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw unprocessable(`${what} is not a valid PEM-encoded certificate.`);
  }
}

/** The DNS names a certificate covers: its subjectAltName DNS entries, else its common name. */
function namesOf(cert: X509Certificate): string[] {
  const alt = (cert.subjectAltName ?? '')
    .split(', ')
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4).toLowerCase());
  if (alt.length) return alt;
  const cn = /(?:^|\n)CN=(.*)/.exec(cert.subject)?.[1];
  return cn ? [cn.toLowerCase()] : [];
}

function checkCustom(body: typeof CertificateBody.static, name: string): CertificateFields {
  if (!body.private_key || !body.leaf_certificate)
    throw unprocessable('private_key and leaf_certificate are required for a custom certificate.');
  const leaf = parse(body.leaf_certificate, 'leaf_certificate');
  if (body.certificate_chain) {
    const chain = body.certificate_chain.match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
    );
    if (!chain) throw unprocessable('certificate_chain is not a valid PEM-encoded certificate.');
    for (const pem of chain) parse(pem, 'certificate_chain');
  }
  let matches = false;
  try {
    matches = leaf.checkPrivateKey(createPrivateKey(body.private_key));
  } catch {
    throw unprocessable('private_key is not a valid PEM-encoded private key.');
  }
  if (!matches) throw unprocessable('private_key does not match leaf_certificate.');
  const notAfter = new Date(leaf.validTo);
  if (notAfter.getTime() <= Date.now()) throw unprocessable('leaf_certificate has expired.');
  return {
    name,
    type: 'custom',
    dns_names: namesOf(leaf),
    not_after: notAfter,
    sha1_fingerprint: leaf.fingerprint.replaceAll(':', '').toLowerCase(),
    leaf_certificate: body.leaf_certificate,
    ...(body.certificate_chain ? { certificate_chain: body.certificate_chain } : {}),
  };
}

/** Either kind, as the provider checks it (422 naming the problem); Let's Encrypt names are checked by the store. */
export function checkCertificate(body: typeof CertificateBody.static): CertificateFields {
  const name = body.name?.trim() ?? '';
  if (!name || name.length > 255) throw unprocessable('name is required (at most 255 characters).');
  const type = body.type ?? (body.dns_names && !body.leaf_certificate ? 'lets_encrypt' : 'custom');
  if (type === 'custom') return checkCustom(body, name);
  if (type !== 'lets_encrypt') throw unprocessable('type must be custom or lets_encrypt.');
  const names = [...new Set((body.dns_names ?? []).map((n) => n.toLowerCase()))];
  if (!names.length)
    throw unprocessable('dns_names must name at least one domain for a lets_encrypt certificate.');
  for (const n of names) if (!dnsName.test(n)) throw unprocessable(`${n} is not a valid DNS name.`);
  return { name, type, dns_names: names };
}

/** Made-up but stable: a Let's Encrypt certificate issued here has no real DER to hash. */
export const fingerprintOf = (id: string) =>
  createHash('sha1').update(`backlot-certificate:${id}`).digest('hex');
