import {
  clockOf,
  defineCommand,
  type ServiceCommand,
  type ServiceContext,
  UsageError,
} from '../../platform/service.js';
import { openDatastore } from './datastore.js';
import type { ThingsSettings } from './settings.js';
import { type Thing, ThingsStore } from './store.js';

async function withStore<T>(ctx: ServiceContext<ThingsSettings>, fn: (store: ThingsStore) => Promise<T>) {
  const datastore = await openDatastore(ctx);
  try {
    return await fn(new ThingsStore(datastore.db, clockOf(ctx)));
  } finally {
    await datastore.close();
  }
}

const describe = (thing: Thing) => `${thing.id}\t${thing.name}\t${thing.color}`;

export const commands: Record<string, ServiceCommand<ThingsSettings>> = {
  add: defineCommand({
    summary: 'add a thing to the collection',
    flags: { name: { type: 'string' }, color: { type: 'string' } },
    required: ['name', 'color'],
    run: async ({ flags: { name, color } }, ctx) => {
      if (!name.trim() || !color.trim()) throw new UsageError('--name and --color must not be blank');
      return withStore(ctx, async (store) => `added ${describe(await store.addThing(name, color))}`);
    },
  }),
  list: defineCommand({
    summary: 'list the things (id, name, color)',
    run: async (_input, ctx) =>
      withStore(ctx, async (store) => {
        const things = await store.listThings();
        return things.length ? ['id\tname\tcolor', ...things.map(describe)].join('\n') : 'no things';
      }),
  }),
  remove: defineCommand({
    summary: 'remove a thing by id',
    args: ['id'],
    run: async ({ args: { id } }, ctx) => {
      if (!/^[0-9]{1,18}$/.test(id))
        throw new UsageError('remove takes one thing id (digits), e.g. backlot things remove 3');
      return withStore(ctx, async (store) => {
        if (!(await store.removeThing(id))) throw new UsageError(`no thing with id ${id}`);
        return `removed thing ${id}`;
      });
    },
  }),
};
