import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses, IdParams, Meta, PageLinks } from '../../schemas.js';
import { findMachine, listMachines, type MachineRow } from '../droplets/store.js';
import { nextWindow, weekdays } from './window.js';

const hours = [0, 4, 8, 12, 16, 20];

/** A droplet's backup policy record, as the provider's: only `droplet_id` and `backup_enabled` when off. */
export function policyRecord(m: MachineRow, now: Date) {
  const enabled = m.features.includes('backups');
  if (!enabled || !m.backup_policy) return { droplet_id: m.id, backup_enabled: false };
  const p = m.backup_policy;
  return {
    droplet_id: m.id,
    backup_enabled: true,
    backup_policy: {
      plan: p.plan,
      ...(p.plan === 'weekly' && weekdays.includes(p.weekday ?? '') ? { weekday: p.weekday as string } : {}),
      hour: p.hour ?? 0,
      window_length_hours: p.window_length_hours,
      retention_period_days: p.retention_period_days,
    },
    next_backup_window: nextWindow(p, now),
  };
}

const Window = Type.Union([Type.Object({ start: Type.String(), end: Type.String() }), Type.Null()]);
const PolicyRecord = Type.Object({
  droplet_id: Type.Integer(),
  backup_enabled: Type.Boolean(),
  backup_policy: Type.Optional(
    Type.Object({
      plan: Type.String(),
      weekday: Type.Optional(Type.String()),
      hour: Type.Integer(),
      window_length_hours: Type.Integer(),
      retention_period_days: Type.Integer(),
    }),
  ),
  next_backup_window: Type.Optional(Window),
});
const Supported = Type.Object({
  name: Type.String(),
  possible_window_starts: Type.Array(Type.Integer()),
  window_length_hours: Type.Integer(),
  retention_period_days: Type.Integer(),
  possible_days: Type.Array(Type.String()),
});

/** The backup policies set by `enable_backups` and `change_backup_policy`, read back. */
function backupPolicyRoutes(app: TypedApp, db: Database, clock: Clock) {
  const tags = ['droplets (original word)'];
  const config = { scopes: ['droplet:read'] } as const;
  app.get(
    '/v2/droplets/backups/policies',
    {
      config,
      schema: {
        tags,
        summary: 'Every droplet’s backup policy, keyed by droplet id',
        querystring: CatalogQuery,
        response: {
          200: Type.Object({
            policies: Type.Record(Type.String(), PolicyRecord),
            links: PageLinks,
            meta: Meta,
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listMachines(db, { limit: p.perPage, offset: p.offset });
      const now = new Date(clock.now());
      return {
        policies: Object.fromEntries(rows.map((m) => [String(m.id), policyRecord(m, now)])),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.get(
    '/v2/droplets/backups/supported_policies',
    {
      config,
      schema: {
        tags,
        summary: 'The backup plans a droplet may have',
        response: { 200: Type.Object({ supported_policies: Type.Array(Supported) }), ...errorResponses },
      },
    },
    async () => ({
      supported_policies: [
        {
          name: 'weekly',
          possible_window_starts: hours,
          window_length_hours: 4,
          retention_period_days: 28,
          possible_days: weekdays,
        },
        {
          name: 'daily',
          possible_window_starts: hours,
          window_length_hours: 4,
          retention_period_days: 7,
          possible_days: [],
        },
      ],
    }),
  );
  app.get(
    '/v2/droplets/:id/backups/policy',
    {
      config,
      schema: {
        tags,
        summary: 'A droplet’s backup policy',
        params: IdParams,
        response: { 200: Type.Object({ policy: PolicyRecord }), ...errorResponses },
      },
    },
    async (request) => {
      const machine = await findMachine(db, Number(request.params.id));
      if (!machine) throw notFound();
      return { policy: policyRecord(machine, new Date(clock.now())) };
    },
  );
}

export const resource: Resource = { routes: (app, { db, clock }) => backupPolicyRoutes(app, db, clock) };
