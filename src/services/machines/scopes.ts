/** Token scopes: what each personal access token may do. */
/** The provider's own scopes for firewalls (a resource with no machine word in it). */
export const firewallScopes = [
  'firewall:read',
  'firewall:create',
  'firewall:update',
  'firewall:delete',
] as const;
export const allScopes = ['machine:create', 'machine:read', 'machine:delete', ...firewallScopes] as const;
export type Scope = (typeof allScopes)[number];

const tokenPattern = /^dop_v1_[0-9a-f]{64}$/;

export function isTokenFormat(token: string): boolean {
  return tokenPattern.test(token);
}

/**
 * Accepts `machine:read`, its original-word alias `droplet:read`, `machine:*`/`droplet:*`, and `all`/`*`;
 * none given means every scope. Throws with a message naming the bad scope.
 */
export function normalizeScopes(given: string[] | undefined): Scope[] {
  if (!given || given.length === 0) return [...allScopes];
  const result = new Set<Scope>();
  for (const raw of given) {
    const scope = raw
      .trim()
      .toLowerCase()
      .replace(/^droplet:/, 'machine:');
    if (scope === 'all' || scope === '*' || scope === 'machine:*') {
      for (const s of allScopes) result.add(s);
    } else if ((allScopes as readonly string[]).includes(scope)) {
      result.add(scope as Scope);
    } else {
      throw new Error(`unknown scope "${raw}" (valid: ${allScopes.join(', ')}, all)`);
    }
  }
  return allScopes.filter((s) => result.has(s));
}
