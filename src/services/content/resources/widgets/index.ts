import { Type } from '@sinclair/typebox';
import { can } from '../../capabilities.js';
import { pickItemFields } from '../../embed-param.js';
import { refused, restError } from '../../errors.js';
import { fieldList, sendFields } from '../../http.js';
import { curies } from '../../render.js';
import { itemSchema } from '../../route-spec.js';
import { ContextEnum, ForceQuery, isTrue, WpBoolean } from '../../schemas.js';
import type { Site } from '../../site.js';
import { type Call, type Check, defineResource } from '../contract.js';
import { widgetTypeIds } from '../widget-types/types.js';
import { blockWidgetForm, type Instance, updateBlockWidget } from './block-widget.js';
import { type PhpValue, serialize, unserialize } from './php.js';
import {
  assignWidget,
  blockNumber,
  deleteInstance,
  INACTIVE,
  instanceOf,
  nextNumber,
  retrieveWidgets,
  saveInstance,
  sidebarOf,
  type WidgetState,
  WidgetStore,
} from './store.js';

// WordPress 6.1's `/wp/v2/widgets` (WP_REST_Widgets_Controller) for administrators (`edit_theme_options`). The
// block widgets the block-based widgets editor makes are stored and moved as WordPress moves them (store.ts); with
// no sidebar registered by the theme, each lands in `wp_inactive_widgets` and renders as "".

const InstanceSchema = Type.Object(
  {
    encoded: Type.Optional(Type.String({ description: 'The instance serialized (PHP) in base64.' })),
    hash: Type.Optional(Type.String({ description: 'The keyed hash vouching for `encoded`.' })),
    raw: Type.Optional(Type.Unknown({ description: 'The instance itself, for types that show it.' })),
  },
  { description: 'The widget’s settings (edit context).' },
);
const WidgetSchema = Type.Object({
  id: Type.String({ description: 'The widget’s id: its type and number (`block-2`).' }),
  id_base: Type.String({ description: 'The widget’s type (a widget-types id).' }),
  sidebar: Type.String({ description: 'The sidebar holding the widget.' }),
  rendered: Type.String({ description: 'The widget’s HTML on the site.' }),
  rendered_form: Type.String({ description: 'The widget’s admin form (edit context).' }),
  instance: InstanceSchema,
  form_data: Type.String({ description: 'The admin form’s fields, URL-encoded (write only).' }),
});
const Query = Type.Object({
  context: Type.Optional(ContextEnum),
  _fields: Type.Optional(Type.String()),
});
const ListQuery = Type.Object({
  ...Query.properties,
  sidebar: Type.Optional(Type.String({ description: 'Only the widgets of this sidebar.' })),
});
const WriteBody = Type.Object({
  id: Type.Optional(Type.String()),
  id_base: Type.Optional(Type.String({ description: 'The new widget’s type (a widget-types id).' })),
  sidebar: Type.Optional(Type.String({ description: 'The sidebar to put the widget in.' })),
  instance: Type.Optional(
    Type.Union([InstanceSchema, Type.Null()], {
      description: 'The widget’s settings: raw, or encoded with its hash as read.',
    }),
  ),
  form_data: Type.Optional(Type.String({ description: 'The admin form’s fields, URL-encoded.' })),
});
const StringId = Type.Object({ id: Type.String({ description: 'The widget’s id (`block-2`).' }) });

/** A write's answer, or the error it answers with (the state it leaves is stored either way). */
type Outcome = Error | Record<string, unknown>;

const widgets = (check: Check) => new WidgetStore(check.store.db);

/** permissions_check: `edit_theme_options` (no sidebar is shown in REST, so none is readable to others). */
export function checkWidgetManager({ me }: Check) {
  if (!can(me, 'edit_theme_options'))
    throw refused(
      !!me,
      'rest_cannot_manage_widgets',
      'Sorry, you are not allowed to manage widgets on this site.',
    );
}

const invalid = (message: string) => restError(400, 'rest_invalid_widget', message);
const notFound = () => restError(404, 'rest_widget_not_found', 'No widget was found with that id.');

/** The instance answer: encoded and hashed as WordPress serializes it, and raw (`{}` when empty). */
export function encodeInstance(instance: PhpValue | undefined, hash: (data: string) => string) {
  const serialized = serialize(instance);
  const empty =
    instance === undefined ||
    instance === null ||
    (typeof instance === 'object' && Object.keys(instance).length === 0);
  return {
    encoded: Buffer.from(serialized, 'utf8').toString('base64'),
    hash: hash(serialized),
    raw: empty ? {} : instance,
  };
}

/** An instance sent back as `encoded` + `hash`: answered only when the hash is this site's. */
export function decodeInstance(encoded: string, hash: string, hasher: (data: string) => string) {
  const serialized = Buffer.from(encoded, 'base64').toString('utf8');
  if (hasher(serialized) !== hash) throw invalid('The provided instance is malformed.');
  return unserialize(serialized);
}

/** `widget-block[7][content]=…` (wp_parse_str): the first number of the type's fields and their values. */
export function parseFormData(
  formData: string,
  idBase: string,
): { number: number; fields: Instance } | undefined {
  let found: { number: number; fields: Instance } | undefined;
  for (const [name, value] of new URLSearchParams(formData)) {
    const match = /^widget-([^[]+)\[(-?\d+)\]\[([^\]]*)\]$/.exec(name);
    if (!match || match[1] !== idBase) continue;
    const number = Number(match[2]);
    found ??= { number, fields: {} };
    if (found.number === number) found.fields[match[3] ?? ''] = value;
  }
  return found;
}

export function renderWidget(
  state: WidgetState,
  id: string,
  sidebar: string,
  context: string,
  site: Site,
  hash: (data: string) => string,
) {
  const number = blockNumber(id) ?? -1;
  const instance = instanceOf(state, number);
  const api = `${site.api}/wp/v2`;
  return {
    id,
    id_base: 'block',
    sidebar,
    // wp_render_widget(): nothing for the inactive sidebar, and nothing for one the theme does not register.
    rendered: '',
    ...(context === 'edit'
      ? { rendered_form: blockWidgetForm(number, instance), instance: encodeInstance(instance, hash) }
      : {}),
    _links: {
      self: [{ href: `${api}/widgets/${id}` }],
      collection: [{ href: `${api}/widgets` }],
      about: [{ embeddable: true, href: `${api}/widget-types/block` }],
      'wp:sidebar': [{ href: `${api}/sidebars/${sidebar}/` }],
      curies,
    },
  };
}

/** save_widget(): the instance the request sends, stored under its number; answers the state after it. */
function saveWidget(
  state: WidgetState,
  body: Record<string, unknown>,
  number: number,
  hash: (data: string) => string,
): WidgetState {
  const instance = body.instance as Record<string, unknown> | null | undefined;
  if (instance !== undefined && instance !== null) {
    let incoming: unknown;
    if (instance.raw !== undefined && instance.raw !== null) incoming = instance.raw;
    else if (typeof instance.encoded === 'string' && typeof instance.hash === 'string')
      incoming = decodeInstance(instance.encoded, instance.hash, hash);
    else throw invalid('The provided instance is invalid. Must contain raw OR encoded and hash.');
    return saveInstance(state, number, updateBlockWidget(incoming, instanceOf(state, number)));
  }
  if (typeof body.form_data === 'string') {
    const form = parseFormData(body.form_data, 'block');
    if (form)
      return saveInstance(state, form.number, updateBlockWidget(form.fields, instanceOf(state, form.number)));
  }
  return state;
}

/** The widget type of a new widget: only block widgets are stored here (docs/content.md). */
function requireBlockType(idBase: unknown) {
  if (typeof idBase !== 'string' || idBase === '') throw invalid('Widget type (id_base) is required.');
  if (idBase !== 'block') throw invalid('The provided widget type (id_base) cannot be updated.');
}

const contextOf = (call: Call) => (call.query.context === 'edit' ? 'edit' : 'view');

function answer(call: Call, item: Record<string, unknown>) {
  const fields = fieldList(call.query._fields as string | undefined);
  sendFields(call.reply, fields);
  return pickItemFields(call.request, item, fields);
}

async function list(call: Call) {
  const hash = await widgets(call).hasher();
  const state = await widgets(call).update((s) => {
    const next = retrieveWidgets(s);
    return { state: next, result: next };
  });
  const only = call.query.sidebar as string | undefined;
  const items = state.sidebars
    .filter(([name]) => only === undefined || name === only)
    .flatMap(([name, ids]) =>
      ids.map((id) => renderWidget(state, id, name, contextOf(call), call.site, hash)),
    );
  const fields = fieldList(call.query._fields as string | undefined);
  sendFields(call.reply, fields);
  return items.map((item) => pickItemFields(call.request, item, fields, true));
}

async function read(call: Call) {
  const hash = await widgets(call).hasher();
  const state = await widgets(call).update((s) => {
    const next = retrieveWidgets(s);
    return { state: next, result: next };
  });
  const sidebar = sidebarOf(state, call.params.id ?? '');
  if (!sidebar) throw notFound();
  return answer(call, renderWidget(state, call.params.id ?? '', sidebar, contextOf(call), call.site, hash));
}

async function create(call: Call) {
  const { body } = call;
  const sidebar = typeof body.sidebar === 'string' ? body.sidebar : INACTIVE;
  const result = await widgets(call).update<Outcome>((before, hash) => {
    // Refused requests still leave the widgets as a read does (core's Allow header looks for lost widgets).
    const settled = { state: retrieveWidgets(before), result: undefined };
    try {
      requireBlockType(body.id_base);
    } catch (error) {
      return { ...settled, result: error as Error };
    }
    const number = nextNumber(before);
    const id = `block-${number}`;
    let saved: WidgetState;
    try {
      saved = saveWidget(before, body, number, hash);
    } catch (error) {
      return { ...settled, result: error as Error };
    }
    const item = renderWidget(saved, id, sidebar, 'edit', call.site, hash);
    // Core files the new widget under its sidebar, then its Allow header's retrieve_widgets(), reading the
    // sidebars as they were before, finds it in none and puts it first in wp_inactive_widgets.
    return { state: retrieveWidgets(saved, [id]), result: item };
  });
  if (result instanceof Error) throw result;
  return answer(call, result as Record<string, unknown>);
}

async function update(call: Call) {
  const id = call.params.id ?? '';
  const { body } = call;
  const result = await widgets(call).update<Outcome>((before, hash) => {
    let state = retrieveWidgets(before);
    const current = sidebarOf(state, id);
    const number = blockNumber(id);
    // An id of no widget type is a 500 in WordPress (rest_invalid_widget): a 404 here, as for a known type.
    const idBase = id.replace(/-\d+$/, '');
    if (!current || number === undefined || !widgetTypeIds.includes(idBase))
      return { state, result: notFound() };
    try {
      if (body.instance !== undefined || body.form_data !== undefined)
        state = saveWidget(state, body, number, hash);
    } catch (error) {
      return { state: retrieveWidgets(before), result: error as Error };
    }
    let sidebar = current;
    if (typeof body.sidebar === 'string' && body.sidebar !== current) {
      sidebar = body.sidebar;
      state = assignWidget(state, id, sidebar);
    }
    return { state, result: renderWidget(state, id, sidebar, 'edit', call.site, hash) };
  });
  if (result instanceof Error) throw result;
  return answer(call, result);
}

async function remove(call: Call) {
  const id = call.params.id ?? '';
  const force = isTrue((call.body.force ?? call.query.force) as string | boolean | undefined);
  const result = await widgets(call).update<Outcome>((before, hash) => {
    let state = retrieveWidgets(before);
    const sidebar = sidebarOf(state, id);
    if (!sidebar) return { state, result: notFound() };
    if (!force) {
      // Into the inactive sidebar: appended again when it is there already, as core does.
      state = assignWidget(state, id, INACTIVE);
      return { state, result: renderWidget(state, id, INACTIVE, 'edit', call.site, hash) };
    }
    const { _links, ...previous } = renderWidget(state, id, sidebar, 'edit', call.site, hash);
    state = assignWidget(deleteInstance(state, blockNumber(id) ?? -1), id, '');
    return { state, result: { deleted: true, previous, _links } };
  });
  if (result instanceof Error) throw result;
  return answer(call, result);
}

export const widgetsResource = defineResource({
  name: 'widgets',
  schema: itemSchema('widget', WidgetSchema),
  routes: [
    {
      path: '/wp/v2/widgets',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The widgets of every sidebar, or of one (administrators)',
          querystring: ListQuery,
          response: Type.Unknown(),
          check: checkWidgetManager,
          handle: list,
        },
        {
          methods: ['POST'],
          summary: 'Create a block widget (administrators); it lands in wp_inactive_widgets',
          body: WriteBody,
          response: Type.Unknown(),
          status: 201,
          check: checkWidgetManager,
          handle: create,
        },
      ],
    },
    {
      path: '/wp/v2/widgets/(?P<id>[\\w\\-]+)',
      params: StringId,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'One widget (administrators)',
          querystring: Query,
          response: Type.Unknown(),
          check: checkWidgetManager,
          handle: read,
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Change a widget’s instance or sidebar (administrators)',
          body: Type.Partial(WriteBody),
          response: Type.Unknown(),
          check: checkWidgetManager,
          handle: update,
        },
        {
          methods: ['DELETE'],
          summary: 'Move a widget to wp_inactive_widgets, or delete it with force=true (administrators)',
          querystring: Type.Object({
            force: Type.Optional(WpBoolean),
            _fields: Type.Optional(Type.String()),
          }),
          body: Type.Optional(ForceQuery) as unknown as typeof ForceQuery,
          response: Type.Unknown(),
          check: checkWidgetManager,
          handle: remove,
        },
      ],
    },
  ],
});
