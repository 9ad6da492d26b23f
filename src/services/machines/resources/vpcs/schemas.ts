import { Type } from '@sinclair/typebox';
import { Meta, PageLinks, PageQuery } from '../../schemas.js';

// Bodies are typed loosely where the provider answers a bad value with its own message (rules.ts).
export const VpcCreate = Type.Object({
  name: Type.String(),
  region: Type.String(),
  description: Type.Optional(Type.String()),
  ip_range: Type.Optional(Type.String()),
});
export const VpcUpdate = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  default: Type.Optional(Type.Boolean()),
});
export const VpcPatch = Type.Partial(VpcUpdate);
export const VpcParams = Type.Object({ vpc_id: Type.String() });
export const PeeringParams = Type.Object({ vpc_id: Type.String(), vpc_peering_id: Type.String() });
export const PeeringCreate = Type.Object({ name: Type.String(), vpc_id: Type.String() });
export const PeeringRename = Type.Object({ name: Type.String() });
export const MembersQuery = Type.Object({ ...PageQuery, resource_type: Type.Optional(Type.String()) });

const Vpc = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  name: Type.String(),
  description: Type.String(),
  region: Type.String(),
  ip_range: Type.String(),
  default: Type.Boolean(),
  created_at: Type.String(),
});
const Peering = Type.Object({
  id: Type.String(),
  name: Type.String(),
  vpc_ids: Type.Array(Type.String()),
  status: Type.String(),
  created_at: Type.String(),
});
const Member = Type.Object({ name: Type.String(), urn: Type.String(), created_at: Type.String() });

export const vpcOne = Type.Object({ vpc: Vpc });
export const vpcList = Type.Object({ vpcs: Type.Array(Vpc), links: PageLinks, meta: Meta });
export const memberList = Type.Object({ members: Type.Array(Member), links: PageLinks, meta: Meta });
export const peeringOne = Type.Object({ peering: Peering });
export const peeringList = Type.Object({ peerings: Type.Array(Peering), links: PageLinks, meta: Meta });
