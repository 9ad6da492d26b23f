import { type TSchema, Type } from '@sinclair/typebox';
import { Meta, PageLinks, PageQuery, TagName } from '../../schemas.js';
import { ActionLink } from '../actions/schemas.js';
import { RegionSchema, SizeSchema } from '../catalog/schemas.js';
import { ImageSchema } from '../images/schemas.js';

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

export const ListQuery = Type.Object({
  ...PageQuery,
  tag_name: TagName,
  name: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
  type: Type.Optional(Type.Union([Type.Literal('droplets'), Type.Literal('gpus')])),
});

export const DeleteByTagQuery = Type.Object({ tag_name: TagName });

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
