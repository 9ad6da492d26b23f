/**
 * Token scopes: what each personal access token may do, in DigitalOcean's custom-scope names — each route requires
 * the scopes its operation declares in DigitalOcean's OpenAPI document (`security: bearer_auth: [...]`).
 */
export const allScopes = [
  'account:read',
  'actions:read',
  'block_storage:create',
  'block_storage:read',
  'block_storage:delete',
  'block_storage_action:create',
  'block_storage_action:read',
  'block_storage_snapshot:create',
  'block_storage_snapshot:read',
  'block_storage_snapshot:delete',
  'cdn:create',
  'cdn:read',
  'cdn:update',
  'cdn:delete',
  'certificate:create',
  'certificate:read',
  'certificate:delete',
  'domain:create',
  'domain:read',
  'domain:update',
  'domain:delete',
  'droplet:create',
  'droplet:read',
  'droplet:update',
  'droplet:delete',
  'firewall:create',
  'firewall:read',
  'firewall:update',
  'firewall:delete',
  'image:create',
  'image:read',
  'image:update',
  'image:delete',
  'load_balancer:create',
  'load_balancer:read',
  'load_balancer:update',
  'load_balancer:delete',
  'monitoring:create',
  'monitoring:read',
  'monitoring:update',
  'monitoring:delete',
  'project:create',
  'project:read',
  'project:update',
  'project:delete',
  'project:assign_resource',
  'regions:read',
  'reserved_ip:create',
  'reserved_ip:read',
  'reserved_ip:update',
  'reserved_ip:delete',
  'sizes:read',
  'snapshot:read',
  'snapshot:delete',
  'spaces_key:create_credentials',
  'spaces_key:read',
  'spaces_key:update',
  'spaces_key:delete',
  'ssh_key:create',
  'ssh_key:read',
  'ssh_key:update',
  'ssh_key:delete',
  'tag:create',
  'tag:read',
  'tag:delete',
  'vpc:create',
  'vpc:read',
  'vpc:update',
  'vpc:delete',
  'vpc_peering:create',
  'vpc_peering:read',
  'vpc_peering:update',
] as const;
export type Scope = (typeof allScopes)[number];

/**
 * The three scopes backlot had before it followed DigitalOcean's names, still accepted (and still stored in tokens
 * made then): each covers every operation that reads, writes (creates, updates, acts) or deletes.
 */
const legacyScopes = new Map<string, (scope: Scope) => boolean>([
  ['machine:read', (s) => s.endsWith(':read')],
  // Spaces keys are created under `spaces_key:create_credentials`, the provider's one create scope not named `:create`.
  [
    'machine:create',
    (s) => /:(create|create_credentials|update)$/.test(s) || s === 'project:assign_resource',
  ],
  ['machine:delete', (s) => s.endsWith(':delete')],
]);

const tokenPattern = /^dop_v1_[0-9a-f]{64}$/;

export function isTokenFormat(token: string): boolean {
  return tokenPattern.test(token);
}

/** The scopes one name stands for: itself, `<resource>:*`, a legacy `machine:` scope, or everything for `all`/`*`. */
function scopesOf(raw: string): Scope[] | undefined {
  const name = raw.trim().toLowerCase();
  if (name === 'all' || name === '*' || name === 'machine:*') return [...allScopes];
  if ((allScopes as readonly string[]).includes(name)) return [name as Scope];
  const legacy = legacyScopes.get(name);
  if (legacy) return allScopes.filter(legacy);
  if (name.endsWith(':*')) {
    const resource = name.slice(0, -1);
    const matched = allScopes.filter((s) => s.startsWith(resource));
    return matched.length > 0 ? matched : undefined;
  }
  return undefined;
}

/**
 * Accepts DigitalOcean's scope names (`droplet:read`, `actions:read`), `<resource>:*`, `all`/`*`, and the legacy
 * `machine:read`/`machine:create`/`machine:delete`; none given means every scope. Throws naming the bad scope.
 */
export function normalizeScopes(given: string[] | undefined): Scope[] {
  if (!given || given.length === 0) return [...allScopes];
  const result = new Set<Scope>();
  for (const raw of given) {
    const scopes = scopesOf(raw);
    if (!scopes) {
      throw new Error(
        `unknown scope "${raw}" (valid: ${allScopes.join(', ')}, <resource>:*, all; or machine:read, machine:create, machine:delete)`,
      );
    }
    for (const s of scopes) result.add(s);
  }
  return allScopes.filter((s) => result.has(s));
}

/** Whether a token's stored scopes (legacy names expanded) include one of those an operation accepts. */
export function grants(held: readonly string[], accepted: readonly Scope[]): boolean {
  return accepted.some(
    (scope) => held.includes(scope) || held.some((name) => legacyScopes.get(name)?.(scope) === true),
  );
}

/** `all` for a token that may do everything (however its scopes were spelled), else its scopes as stored. */
export function describeScopes(held: readonly string[], separator: string): string {
  return allScopes.every((scope) => grants(held, [scope])) ? 'all' : held.join(separator);
}
