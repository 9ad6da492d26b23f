import { createHash } from 'node:crypto';

/** Fields (length-prefixed strings) in the key blob of each OpenSSH public key type. */
const fieldCounts: Record<string, number> = {
  'ssh-rsa': 3,
  'ssh-dss': 5,
  'ssh-ed25519': 2,
  'ecdsa-sha2-nistp256': 3,
  'ecdsa-sha2-nistp384': 3,
  'ecdsa-sha2-nistp521': 3,
  'sk-ssh-ed25519@openssh.com': 3,
  'sk-ecdsa-sha2-nistp256@openssh.com': 4,
};

/** The wire-format fields of a key blob, or undefined when the blob does not split exactly into them. */
function fields(blob: Buffer): Buffer[] | undefined {
  const out: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(at);
    if (at + 4 + length > blob.length) return undefined;
    out.push(blob.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
}

export interface PublicKey {
  type: string;
  /** MD5 of the key blob as colon-separated hex pairs, as `ssh-keygen -l -E md5` and the provider show it. */
  fingerprint: string;
}

/** Parses an OpenSSH `authorized_keys` line (`type base64 [comment]`); undefined when it is not a valid key. */
export function parsePublicKey(text: string): PublicKey | undefined {
  const [type, encoded] = text.trim().split(/\s+/, 2);
  if (!type || !encoded || !(type in fieldCounts)) return undefined;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  const blob = Buffer.from(encoded, 'base64');
  const parts = fields(blob);
  if (!parts || parts.length !== fieldCounts[type] || parts[0]?.toString('latin1') !== type) return undefined;
  if (type === 'ssh-ed25519' && parts[1]?.length !== 32) return undefined;
  if (type === 'ssh-rsa' && (parts[2]?.length ?? 0) < 128) return undefined;
  const hex = createHash('md5').update(blob).digest('hex');
  return { type, fingerprint: (hex.match(/../g) as string[]).join(':') };
}
