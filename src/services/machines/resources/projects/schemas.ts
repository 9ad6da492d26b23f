import { Type } from '@sinclair/typebox';
import { Meta, PageLinks } from '../../schemas.js';

// Typed loosely: what is missing or out of range is the provider's 400 with a message (rules.ts).
export const ProjectBody = Type.Object({
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  purpose: Type.Optional(Type.String()),
  environment: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  is_default: Type.Optional(Type.Boolean()),
});
export const ProjectParams = Type.Object({ project_id: Type.String() });
export const AssignBody = Type.Object({ resources: Type.Array(Type.String()) });

const Project = Type.Object({
  id: Type.String(),
  owner_uuid: Type.String(),
  owner_id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  purpose: Type.String(),
  environment: Type.Optional(Type.String()),
  is_default: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const Assigned = Type.Object({
  urn: Type.String(),
  assigned_at: Type.String(),
  links: Type.Object({ self: Type.String() }),
  status: Type.String(),
});

export const projectOne = Type.Object({ project: Project });
export const projectList = Type.Object({ projects: Type.Array(Project), links: PageLinks, meta: Meta });
export const resourceList = Type.Object({ resources: Type.Array(Assigned), links: PageLinks, meta: Meta });
export const assignedList = Type.Object({ resources: Type.Array(Assigned) });
