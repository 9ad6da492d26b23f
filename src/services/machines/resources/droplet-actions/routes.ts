import { Type } from '@sinclair/typebox';
import type { Database, Queryable } from '../../../../platform/database.js';
import { HttpError } from '../../../../platform/errors.js';
import type { Clock } from '../../../../platform/service.js';
import { badRequest, notFound, unprocessable } from '../../errors.js';
import type { Resource, ResourceContext } from '../../resource.js';
import { pagedList, type TypedApp, type Word, words } from '../../routing.js';
import { CatalogQuery, errorResponses, IdParams } from '../../schemas.js';
import type { MachinesSettings } from '../../settings.js';
import { isRowId } from '../../store.js';
import { presentAction } from '../actions/present.js';
import { type ActionRow, findAction } from '../actions/row.js';
import { ActionSchema, actionList } from '../actions/schemas.js';
import { hasPendingAction, insertAction, listActions, requestTime } from '../actions/store.js';
import { listMachines, type MachineRow, machineColumns } from '../droplets/store.js';
import { actionParams, bulkActionTypes } from './rules.js';
import { ActionBody, ByTagQuery, MachineActionParams } from './schemas.js';

type Body = Parameters<typeof actionParams>[2];

/** Locks the machine, refuses a second action while one is in progress, checks the transition and records it. */
async function startAction(
  db: Database,
  settings: MachinesSettings,
  id: number,
  body: Body,
  w: Word,
  now: Date,
): Promise<ActionRow | undefined> {
  return db.transaction(async (tx) => {
    if (!isRowId(id)) return undefined;
    const { rows } = await tx.query<MachineRow>(
      `SELECT ${machineColumns} FROM machines.machines m WHERE m.id = $1 FOR UPDATE`,
      [id],
    );
    const machine = rows[0];
    if (!machine) return undefined;
    if (await hasPendingAction(tx, id, new Date(now.getTime() - settings.provisionMs)))
      throw unprocessable(`${w.title} already has a pending event.`);
    const params = await actionParams(tx as Database, machine, body, w.title);
    return insertAction(tx, {
      type: body.type,
      resourceId: id,
      resourceType: w.singular,
      region: machine.region,
      params,
      startedAt: now,
    });
  });
}

const actionBelongs = (action: ActionRow | undefined, machineId: number) =>
  action &&
  action.resource_id === machineId &&
  (action.resource_type === 'machine' || action.resource_type === 'droplet');

export function machineActionRoutes(app: TypedApp, { db, settings, clock }: ResourceContext, w: Word) {
  const tags = [w.tag];
  const one = Type.Object({ action: ActionSchema });
  const show = (a: ActionRow) => presentAction(a, settings.provisionMs, clock.now());

  app.post(
    `/v2/${w.plural}/:id/actions`,
    {
      config: { scopes: ['droplet:update'] },
      schema: {
        tags,
        summary: `Act on a ${w.singular}: power, resize, rebuild, rename, snapshot, backups, kernel, IPv6, …`,
        params: IdParams,
        body: ActionBody,
        response: { 201: one, ...errorResponses },
      },
    },
    async (request, reply) => {
      const action = await startAction(
        db,
        settings,
        Number(request.params.id),
        request.body,
        w,
        requestTime(request),
      );
      if (!action) throw notFound();
      reply.code(201);
      return { action: show(action) };
    },
  );

  app.post(
    `/v2/${w.plural}/actions`,
    {
      config: { scopes: ['droplet:update'] },
      schema: {
        tags,
        summary: `Act on every ${w.singular} with a tag (tag_name is required)`,
        querystring: ByTagQuery,
        body: ActionBody,
        response: { 201: Type.Object({ actions: Type.Array(ActionSchema) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const tag = request.query.tag_name;
      if (!tag) throw badRequest(`tag_name is required to act on ${w.plural} by tag`);
      if (!bulkActionTypes.has(request.body.type))
        throw unprocessable(
          `The action type ${JSON.stringify(request.body.type)} can't be used with tag_name.`,
        );
      const { rows } = await listMachines(db, { tag, limit: 100_000, offset: 0 });
      const actions: ActionRow[] = [];
      for (const machine of rows) {
        // A machine that cannot take the action (already off, busy) is left out, not an error for all.
        try {
          const action = await startAction(db, settings, machine.id, request.body, w, requestTime(request));
          if (action) actions.push(action);
        } catch (error) {
          if (!(error instanceof HttpError && error.statusCode === 422)) throw error;
        }
      }
      reply.code(201);
      return { actions: actions.map(show) };
    },
  );

  app.get(
    `/v2/${w.plural}/:id/actions`,
    {
      config: { scopes: ['droplet:read'] },
      schema: {
        tags,
        summary: `A ${w.singular}'s actions, newest first`,
        params: IdParams,
        querystring: CatalogQuery,
        response: { 200: actionList, ...errorResponses },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      if (!(await machineExists(db, id))) throw notFound();
      return pagedList(request, 'actions', (window) => listActions(db, { machineId: id, ...window }), show);
    },
  );

  app.get(
    `/v2/${w.plural}/:id/actions/:action_id`,
    {
      config: { scopes: ['droplet:read'] },
      schema: {
        tags,
        summary: `One of a ${w.singular}'s actions`,
        params: MachineActionParams,
        response: { 200: one, ...errorResponses },
      },
    },
    async (request) => {
      const action = await findAction(db, Number(request.params.action_id));
      if (!action || !actionBelongs(action, Number(request.params.id))) throw notFound();
      return { action: show(action) };
    },
  );
}

async function machineExists(db: Queryable, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const { rows } = await db.query('SELECT 1 FROM machines.machines WHERE id = $1', [id]);
  return rows.length > 0;
}

export const resource: Resource = {
  routes(app, ctx) {
    for (const w of words) machineActionRoutes(app, ctx, w);
  },
};
