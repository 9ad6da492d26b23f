import type { Database } from '../../platform/database.js';
import { newToken, tokenHash } from '../../platform/secrets.js';
import { type ServiceCommand, type ServiceContext, UsageError } from '../../platform/service.js';
import { allScopes, normalizeScopes } from './scopes.js';
import type { MachinesSettings } from './settings.js';
import {
  deleteToken,
  findTokenByHash,
  findTokenByName,
  insertToken,
  insertTokenIfNone,
  listTokens,
  syncPresetTokens,
} from './store.js';

export const generateToken = () => `dop_v1_${newToken(32)}`;

const GENERATED_NAME = 'generated';

/**
 * Start-up: presets from MACHINES_TOKENS replace the stored presets; with none and no token at all, one
 * full-scope token is generated once and kept for the banner. Returns the banner lines.
 */
export async function prepareTokens(ctx: ServiceContext<MachinesSettings>): Promise<string[]> {
  const { db, settings, credentials } = ctx;
  const presets = settings.presetTokens.map((p) => ({
    name: p.name,
    hash: tokenHash(p.token),
    scopes: p.scopes,
  }));
  await syncPresetTokens(db, presets);
  if (presets.length > 0) {
    return [`tokens: ${presets.length} from MACHINES_TOKENS (${presets.map((p) => p.name).join(', ')})`];
  }
  const fresh = generateToken();
  if (await insertTokenIfNone(db, { name: GENERATED_NAME, hash: tokenHash(fresh), scopes: [...allScopes] })) {
    credentials.remember('machines', 'token', fresh);
  }
  const kept = credentials.recall('machines', 'token');
  if (kept && (await findTokenByHash(db, tokenHash(kept)))) {
    return [`token (full access, generated on first start): ${kept}`];
  }
  return ['tokens: create one with `backlot machines token create --name NAME`'];
}

function option(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === `--${name}`) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      return value;
    }
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

async function create(db: Database, args: string[]): Promise<string> {
  const name = option(args, 'name');
  if (!name) throw new UsageError('token create needs --name NAME');
  if (!/^[\w.-]{1,100}$/.test(name))
    throw new UsageError('--name: letters, digits, ".", "_" and "-" only (at most 100)');
  const scopesArg = option(args, 'scopes');
  let scopes: ReturnType<typeof normalizeScopes>;
  try {
    scopes = normalizeScopes(scopesArg?.split(',').filter((s) => s.trim()));
  } catch (error) {
    throw new UsageError(`--scopes: ${(error as Error).message}`);
  }
  if (await findTokenByName(db, name)) throw new UsageError(`a token named "${name}" already exists`);
  const token = generateToken();
  await insertToken(db, { name, hash: tokenHash(token), scopes, source: 'cli' });
  return [
    `Created token "${name}" (scopes: ${scopes.join(', ')}).`,
    'Copy it now: it is stored only as a hash and cannot be shown again.',
    '',
    token,
  ].join('\n');
}

async function list(db: Database): Promise<string> {
  const tokens = await listTokens(db);
  if (tokens.length === 0) return 'No tokens. Create one with: backlot machines token create --name NAME';
  const rows = tokens.map((t) => [
    String(t.id),
    t.name,
    t.scopes.join(','),
    t.source,
    t.created_at.toISOString(),
  ]);
  const header = ['ID', 'NAME', 'SCOPES', 'SOURCE', 'CREATED'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] as number))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function revoke(db: Database, args: string[]): Promise<string> {
  const ref = args[0];
  if (!ref || args.length > 1) throw new UsageError('token revoke needs exactly one token name or id');
  const token =
    (await findTokenByName(db, ref)) ??
    (/^\d{1,9}$/.test(ref) ? (await listTokens(db)).find((t) => t.id === Number(ref)) : undefined);
  if (!token) throw new UsageError(`no token named or numbered "${ref}"`);
  await deleteToken(db, token.id);
  const note =
    token.source === 'preset' ? ' It comes back on the next start while MACHINES_TOKENS lists it.' : '';
  return `Revoked token "${token.name}" (id ${token.id}).${note}`;
}

export const tokenCommand: ServiceCommand<MachinesSettings> = {
  usage: 'token create --name N [--scopes a,b] | token list | token revoke <name-or-id>',
  summary: 'personal access tokens (printed once, stored as hashes)',
  async run(args, ctx) {
    const [sub, ...rest] = args;
    if (sub === 'create') return create(ctx.db, rest);
    if (sub === 'list') return list(ctx.db);
    if (sub === 'revoke') return revoke(ctx.db, rest);
    throw new UsageError(`unknown token command "${sub ?? ''}" (valid: create, list, revoke)`);
  },
};
