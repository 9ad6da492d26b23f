import { type TSchema, Type } from '@sinclair/typebox';

export const ErrorSchema = Type.Object(
  { id: Type.String(), message: Type.String(), request_id: Type.String() },
  { $id: 'MachinesError' },
);

const errorRef = Type.Ref('MachinesError');
export const errorResponses = {
  400: errorRef,
  401: errorRef,
  403: errorRef,
  404: errorRef,
  422: errorRef,
  429: errorRef,
};

export const SizeSchema = Type.Object({
  slug: Type.String(),
  memory: Type.Integer({ description: 'megabytes' }),
  vcpus: Type.Integer(),
  disk: Type.Integer({ description: 'gigabytes' }),
  transfer: Type.Number({ description: 'terabytes per month' }),
  price_monthly: Type.Number(),
  price_hourly: Type.Number(),
  regions: Type.Array(Type.String()),
  available: Type.Boolean(),
  description: Type.String(),
});

export const RegionSchema = Type.Object({
  name: Type.String(),
  slug: Type.String(),
  features: Type.Array(Type.String()),
  available: Type.Boolean(),
  sizes: Type.Array(Type.String()),
});

export const ImageSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  distribution: Type.String(),
  slug: Type.Union([Type.String(), Type.Null()]),
  public: Type.Boolean(),
  regions: Type.Array(Type.String()),
  created_at: Type.String(),
  min_disk_size: Type.Integer(),
  type: Type.String(),
  size_gigabytes: Type.Number(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  status: Type.String(),
  error_message: Type.String(),
});

export const KernelSchema = Type.Object({ id: Type.Integer(), name: Type.String(), version: Type.String() });

const NetworkInterface = Type.Object({
  ip_address: Type.String(),
  netmask: Type.Union([Type.String(), Type.Integer()]),
  gateway: Type.String(),
  type: Type.Union([Type.Literal('public'), Type.Literal('private')]),
});

export const MachineSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  memory: Type.Integer(),
  vcpus: Type.Integer(),
  disk: Type.Integer(),
  locked: Type.Boolean(),
  status: Type.Union([Type.Literal('new'), Type.Literal('active'), Type.Literal('off')]),
  kernel: Type.Union([KernelSchema, Type.Null()]),
  created_at: Type.String({ description: 'ISO 8601, seconds, UTC' }),
  features: Type.Array(Type.String()),
  backup_ids: Type.Array(Type.Integer()),
  snapshot_ids: Type.Array(Type.Integer()),
  volume_ids: Type.Array(Type.String()),
  next_backup_window: Type.Union([Type.Object({ start: Type.String(), end: Type.String() }), Type.Null()]),
  image: ImageSchema,
  size: SizeSchema,
  size_slug: Type.String(),
  networks: Type.Object({ v4: Type.Array(NetworkInterface), v6: Type.Array(NetworkInterface) }),
  region: RegionSchema,
  tags: Type.Array(Type.String()),
  vpc_uuid: Type.Optional(Type.String({ format: 'uuid' })),
});

export const ActionLink = Type.Object({ id: Type.Integer(), rel: Type.String(), href: Type.String() });

export const ActionSchema = Type.Object({
  id: Type.Integer(),
  status: Type.Union([Type.Literal('in-progress'), Type.Literal('completed')]),
  type: Type.String(),
  started_at: Type.String(),
  completed_at: Type.Union([Type.String(), Type.Null()]),
  resource_id: Type.Union([Type.Integer(), Type.Null()]),
  resource_type: Type.String(),
  region: Type.Union([RegionSchema, Type.Null()]),
  region_slug: Type.String(),
});

export const PageLinks = Type.Object({
  pages: Type.Optional(
    Type.Object({
      first: Type.Optional(Type.String()),
      prev: Type.Optional(Type.String()),
      next: Type.Optional(Type.String()),
      last: Type.Optional(Type.String()),
    }),
  ),
});

export const Meta = Type.Object({ total: Type.Integer() });

export const PageQuery = {
  // Bounded so the row offset stays a valid bigint (page=1e308 was a 500).
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1 })),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, default: 20, description: 'at most 200; larger is capped' }),
  ),
};

// A tag never contains NUL, and PostgreSQL text cannot carry one: refused as a bad parameter (was a 500).
const TagName = Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' }));
export const ListQuery = Type.Object({
  ...PageQuery,
  tag_name: TagName,
  name: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
  type: Type.Optional(Type.Union([Type.Literal('droplets'), Type.Literal('gpus')])),
});
export const CatalogQuery = Type.Object(PageQuery);
export const ImagesQuery = Type.Object({
  ...PageQuery,
  type: Type.Optional(Type.String()),
  private: Type.Optional(Type.Boolean()),
  tag_name: TagName,
});
export const DeleteByTagQuery = Type.Object({ tag_name: TagName });
export const IdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,10}$' }) });

export const CreateBody = Type.Object({
  name: Type.Optional(Type.String()),
  names: Type.Optional(Type.Array(Type.String())),
  region: Type.Optional(Type.String()),
  size: Type.Optional(Type.String()),
  image: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
  tags: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  ssh_keys: Type.Optional(Type.Union([Type.Array(Type.Union([Type.String(), Type.Integer()])), Type.Null()])),
  backups: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  ipv6: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  monitoring: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  private_networking: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  with_droplet_agent: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  user_data: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  vpc_uuid: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  // godo sends `[{"id": …}]` (or `{"name": …}`), other clients plain ids.
  volumes: Type.Optional(
    Type.Union([
      Type.Array(
        Type.Union([
          Type.String(),
          Type.Object({ id: Type.Optional(Type.String()), name: Type.Optional(Type.String()) }),
        ]),
      ),
      Type.Null(),
    ]),
  ),
});

/** Response envelopes keyed by the resource word (`machine` or `droplet`). */
export function envelopes(singular: string, plural: string) {
  const one = Type.Object({ [singular]: MachineSchema } as Record<string, TSchema>);
  const createdOne = Type.Object({
    [singular]: MachineSchema,
    links: Type.Object({ actions: Type.Array(ActionLink) }),
  } as Record<string, TSchema>);
  const createdMany = Type.Object({
    [plural]: Type.Array(MachineSchema),
    links: Type.Object({ actions: Type.Array(ActionLink) }),
  } as Record<string, TSchema>);
  const list = Type.Object({
    [plural]: Type.Array(MachineSchema),
    links: PageLinks,
    meta: Meta,
  } as Record<string, TSchema>);
  return { one, created: Type.Union([createdOne, createdMany]), list };
}

export const ActionBody = Type.Object({
  type: Type.String(),
  size: Type.Optional(Type.String()),
  disk: Type.Optional(Type.Boolean()),
  image: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
  name: Type.Optional(Type.String()),
  kernel: Type.Optional(Type.Integer()),
  backup_policy: Type.Optional(
    Type.Object({
      plan: Type.Optional(Type.String()),
      weekday: Type.Optional(Type.String()),
      hour: Type.Optional(Type.Integer()),
    }),
  ),
});

export const MachineActionParams = Type.Object({
  id: Type.String({ pattern: '^[0-9]{1,10}$' }),
  action_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
});
export const ByTagQuery = Type.Object({ tag_name: TagName });
export const actionList = Type.Object({ actions: Type.Array(ActionSchema), links: PageLinks, meta: Meta });
