import { type ServiceCommand, type ServiceContext, UsageError } from '../../platform/service.js';
import { openDatastore } from './datastore.js';
import type { ThingsSettings } from './settings.js';
import { type Thing, ThingsStore } from './store.js';

async function withStore<T>(ctx: ServiceContext<ThingsSettings>, fn: (store: ThingsStore) => Promise<T>) {
  const datastore = await openDatastore(ctx);
  try {
    return await fn(new ThingsStore(datastore.db));
  } finally {
    await datastore.close();
  }
}

/** `--name value` and `--name=value` flags; anything else is a usage error. */
function parseFlags(args: string[], allowed: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const match = /^--([a-z]+)(?:=(.*))?$/s.exec(args[i]);
    if (!match || !allowed.includes(match[1])) throw new UsageError(`unexpected argument "${args[i]}"`);
    const value = match[2] ?? args[++i];
    if (value === undefined) throw new UsageError(`--${match[1]} needs a value`);
    flags[match[1]] = value;
  }
  return flags;
}

const describe = (thing: Thing) => `${thing.id}\t${thing.name}\t${thing.color}`;

export const commands: Record<string, ServiceCommand<ThingsSettings>> = {
  add: {
    usage: 'add --name <name> --color <color>',
    summary: 'add a thing to the collection',
    run: async (args, ctx) => {
      const { name, color } = parseFlags(args, ['name', 'color']);
      if (!name?.trim() || !color?.trim()) throw new UsageError('both --name and --color are required');
      return withStore(ctx, async (store) => `added ${describe(await store.addThing(name, color))}`);
    },
  },
  list: {
    usage: 'list',
    summary: 'list the things (id, name, color)',
    run: async (args, ctx) => {
      if (args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
      return withStore(ctx, async (store) => {
        const things = await store.listThings();
        return things.length ? ['id\tname\tcolor', ...things.map(describe)].join('\n') : 'no things';
      });
    },
  },
  remove: {
    usage: 'remove <id>',
    summary: 'remove a thing by id',
    run: async (args, ctx) => {
      const [id, ...rest] = args;
      if (!id || rest.length > 0 || !/^[0-9]{1,18}$/.test(id))
        throw new UsageError('remove takes one thing id (digits), e.g. backlot things remove 3');
      return withStore(ctx, async (store) => {
        if (!(await store.removeThing(id))) throw new UsageError(`no thing with id ${id}`);
        return `removed thing ${id}`;
      });
    },
  },
};
