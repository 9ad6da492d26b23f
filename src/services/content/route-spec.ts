import type { TObject } from '@sinclair/typebox';

// How content describes its routes to clients (the index, OPTIONS): shared by discovery.ts and the route groups'
// spec files, which discovery.ts gathers.

export const idArg = {
  id: { description: 'The id of the item.', type: 'integer', required: true },
};
export const contextArg = {
  context: {
    description:
      'Which fields come back: view (the public ones), embed (a short form) or edit (all, for editors).',
    type: 'string',
    enum: ['view', 'embed', 'edit'],
    default: 'view',
    required: false,
  },
};

/** Route arguments in WordPress's form, read from the same schemas that validate the requests. */
export function argsOf(schema: TObject, requiredAlso: string[] = []) {
  const required = new Set([...(schema.required ?? []), ...requiredAlso]);
  const args: Record<string, Record<string, unknown>> = {};
  for (const [name, property] of Object.entries(schema.properties) as [string, Record<string, unknown>][]) {
    const arg: Record<string, unknown> = {};
    if (property.description) arg.description = property.description;
    if (property.anyOf) {
      const consts = (property.anyOf as Record<string, unknown>[]).map((s) => s.const);
      if (consts.every((c) => typeof c === 'string')) Object.assign(arg, { type: 'string', enum: consts });
      else arg.type = (property.anyOf as Record<string, unknown>[]).map((s) => s.type ?? 'object');
    } else if (property.type) arg.type = property.type;
    if (property.items) {
      const items = property.items as Record<string, unknown>;
      arg.items = items.anyOf
        ? { type: 'string', enum: (items.anyOf as Record<string, unknown>[]).map((s) => s.const) }
        : { type: items.type };
    }
    for (const key of ['default', 'minimum', 'maximum', 'maxLength'] as const)
      if (property[key] !== undefined) arg[key] = property[key];
    arg.required = required.has(name);
    args[name] = arg;
  }
  return args;
}

export interface RouteSpec {
  path: string;
  /** `args` is `[]` where WordPress lists none (its empty PHP array). */
  endpoints: { methods: string[]; allow_batch?: unknown; args: Record<string, unknown> | [] }[];
  /** Routes without parameters link to themselves. */
  linked: boolean;
  /** The resource's JSON schema, which `OPTIONS` answers (see rest-http.ts). */
  schema?: Record<string, unknown>;
}

/** A resource schema in core's form (draft-04, titled), from the TypeBox schema that serializes it. */
export const itemSchema = (title: string, schema: TObject): Record<string, unknown> => {
  const properties = JSON.parse(JSON.stringify(schema.properties));
  // `meta` is serialized as it is (core's empty PHP array, `[]`); described as core describes it.
  if (properties.meta) properties.meta = { type: 'object', properties: [] };
  return { $schema: 'http://json-schema.org/draft-04/schema#', title, type: 'object', properties };
};
