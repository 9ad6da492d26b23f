import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { Queryable } from '../../../../platform/database.js';
import type { Resource } from '../../resource.js';
import type { TypedApp } from '../../routing.js';
import { errorResponses } from '../../schemas.js';
import type { MachinesSettings } from '../../settings.js';
import { RESERVED_IP_LIMIT } from '../reserved-ips/store.js';
import { VOLUME_LIMIT } from '../volumes/rules.js';

const AccountSchema = Type.Object({
  droplet_limit: Type.Integer(),
  floating_ip_limit: Type.Integer(),
  volume_limit: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  uuid: Type.String(),
  email_verified: Type.Boolean(),
  status: Type.String(),
  status_message: Type.String(),
});

/**
 * `/v2/account`: the one account every token belongs to. Its status turns `warning` when the machine limit is
 * reached, so a client can see why the next create would be refused.
 */
export const accountUuid = createHash('sha1').update('backlot:machines:account').digest('hex');

export function accountRoutes(app: TypedApp, db: Queryable, settings: MachinesSettings) {
  const uuid = accountUuid;
  app.get(
    '/v2/account',
    {
      config: { scopes: ['account:read'] },
      schema: {
        tags: ['account'],
        summary: 'The account: limits and status',
        response: { 200: Type.Object({ account: AccountSchema }), ...errorResponses },
      },
    },
    async () => {
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.machines');
      const full = Number(rows[0]?.n ?? 0) >= settings.limit;
      return {
        account: {
          droplet_limit: settings.limit,
          floating_ip_limit: RESERVED_IP_LIMIT,
          volume_limit: VOLUME_LIMIT,
          email: 'sammy@backlot.test',
          name: 'Backlot',
          uuid,
          email_verified: true,
          status: full ? 'warning' : 'active',
          status_message: full ? `The account has reached its limit of ${settings.limit} droplets.` : '',
        },
      };
    },
  );
}

export const resource: Resource = {
  routes: (app, { db, settings }) => accountRoutes(app, db, settings),
};
