import type { Database } from '../../platform/database.js';
import { newToken, tokenHash } from '../../platform/secrets.js';
import {
  defineCommand,
  type ServiceCommand,
  type ServiceContext,
  UsageError,
} from '../../platform/service.js';
import { allScopes, describeScopes, normalizeScopes } from './scopes.js';
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

async function create(db: Database, name: string, scopesArg: string | undefined): Promise<string> {
  if (!/^[\w.-]{1,100}$/.test(name))
    throw new UsageError('--name: letters, digits, ".", "_" and "-" only (at most 100)');
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
    `Created token "${name}" (scopes: ${describeScopes(scopes, ', ')}).`,
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
    describeScopes(t.scopes, ','),
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

async function revoke(db: Database, ref: string): Promise<string> {
  const token =
    (await findTokenByName(db, ref)) ??
    (/^\d{1,9}$/.test(ref) ? (await listTokens(db)).find((t) => t.id === Number(ref)) : undefined);
  if (!token) throw new UsageError(`no token named or numbered "${ref}"`);
  await deleteToken(db, token.id);
  const note =
    token.source === 'preset' ? ' It comes back on the next start while MACHINES_TOKENS lists it.' : '';
  return `Revoked token "${token.name}" (id ${token.id}).${note}`;
}

export const tokenCommands: Record<string, ServiceCommand<MachinesSettings>> = {
  'token create': defineCommand({
    summary: 'print a new personal access token (scopes comma-separated; default all)',
    flags: { name: { type: 'string' }, scopes: { type: 'string' } },
    required: ['name'],
    run: ({ flags }, ctx) => create(ctx.db, flags.name, flags.scopes),
  }),
  'token list': defineCommand({
    summary: 'list the tokens (names, scopes; never the secrets)',
    run: (_input, ctx) => list(ctx.db),
  }),
  'token revoke': defineCommand({
    summary: 'revoke a token by name or id, at once',
    args: ['name-or-id'],
    run: ({ args }, ctx) => revoke(ctx.db, args['name-or-id']),
  }),
};
