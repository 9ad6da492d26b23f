import { Type } from '@sinclair/typebox';
import { pickItemFields } from '../../embed-param.js';
import { restError } from '../../errors.js';
import { fieldList, sendFields } from '../../http.js';
import { itemSchema } from '../../route-spec.js';
import { ContextEnum } from '../../schemas.js';
import type { Site } from '../../site.js';
import { type Call, type Check, defineResource } from '../contract.js';
import {
  blockWidgetForm,
  blockWidgetPreview,
  type Instance,
  updateBlockWidget,
} from '../widgets/block-widget.js';
import { checkWidgetManager, decodeInstance, encodeInstance, parseFormData } from '../widgets/index.js';
import { WidgetStore } from '../widgets/store.js';
import { type WidgetType, widgetTypes } from './types.js';

// WordPress 6.1's `/wp/v2/widget-types` (WP_REST_Widget_Types_Controller) for administrators: the widget types core
// registers, read-only, and `/encode` and `/render`, which turn a block widget's settings into its form and
// preview without storing anything. Other types' forms are not built here (docs/content.md).

const WidgetTypeSchema = Type.Object({
  id: Type.String({ description: 'The type’s id (`block`), a widget’s id_base.' }),
  name: Type.String({ description: 'The type’s name.' }),
  description: Type.String({ description: 'What the type shows, in words.' }),
  is_multi: Type.Boolean({ description: 'Whether a site may hold several widgets of the type.' }),
  classname: Type.String({ description: 'The CSS class of the type’s widgets.' }),
});
const Query = Type.Object({
  context: Type.Optional(ContextEnum),
  _fields: Type.Optional(Type.String()),
});
const TypeId = Type.Object({ id: Type.String({ description: 'The widget type’s id.' }) });
const EncodeBody = Type.Object({
  instance: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'The settings so far.' }),
  ),
  form_data: Type.Optional(Type.String({ description: 'The admin form’s fields, URL-encoded, to apply.' })),
  number: Type.Optional(Type.Unknown({ description: 'The widget number the form’s field names carry.' })),
});
const RenderBody = Type.Object({
  instance: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'The settings to show.' }),
  ),
});

/** get_item_permissions_check: a manager of widgets, and a type that exists (a 404 before anything else). */
function checkType(check: Check) {
  checkWidgetManager(check);
  if (!widgetTypes.some((type) => type.id === check.params.id))
    throw restError(404, 'rest_widget_type_invalid', 'Invalid widget type.');
}

function render(type: WidgetType, site: Site) {
  const base = `${site.api}/wp/v2/widget-types`;
  return {
    id: type.id,
    name: type.name,
    description: type.description,
    is_multi: true,
    classname: type.classname,
    _links: { collection: [{ href: base }], self: [{ href: `${base}/${type.id}` }] },
  };
}

const onlyBlock = (id: string | undefined) => {
  if (id !== 'block') throw restError(400, 'rest_invalid_widget', 'Only block widgets are previewed here.');
};

/** The instance the request sends (encoded + hash, checked), then its form data applied as the widget's update. */
async function incomingInstance(call: Call): Promise<Instance> {
  const sent = call.body.instance as Record<string, unknown> | undefined;
  let instance: Instance = {};
  if (typeof sent?.encoded === 'string' && typeof sent?.hash === 'string') {
    const decoded = decodeInstance(sent.encoded, sent.hash, await new WidgetStore(call.store.db).hasher());
    instance = decoded && typeof decoded === 'object' && !Array.isArray(decoded) ? decoded : {};
  }
  const form =
    typeof call.body.form_data === 'string' ? parseFormData(call.body.form_data, 'block') : undefined;
  return form ? updateBlockWidget(form.fields, instance) : instance;
}

async function encode(call: Call) {
  onlyBlock(call.params.id);
  const number = Number(call.body.number);
  const given = call.body.number !== undefined && call.body.number !== '' && Number.isFinite(number);
  const instance = await incomingInstance(call);
  const hash = await new WidgetStore(call.store.db).hasher();
  return {
    form: blockWidgetForm(given ? Math.trunc(number) : -1, instance),
    preview: blockWidgetPreview(instance),
    instance: encodeInstance(instance, hash),
  };
}

/** The preview page WordPress frames in the editor: here the widget alone, without the theme's head and styles. */
async function renderPreview(call: Call) {
  onlyBlock(call.params.id);
  const sent = call.body.instance as Record<string, unknown> | undefined;
  let instance: Instance = {};
  if (typeof sent?.encoded === 'string' && typeof sent?.hash === 'string')
    instance = (decodeInstance(sent.encoded, sent.hash, await new WidgetStore(call.store.db).hasher()) ??
      {}) as Instance;
  else if (sent?.raw && typeof sent.raw === 'object') instance = sent.raw as Instance;
  return {
    preview:
      '<!doctype html>\n<html lang="en-US">\n<head>\n<meta charset="UTF-8" />\n</head>\n<body>\n' +
      `<div id="page" class="site"><div id="content" class="site-content">${blockWidgetPreview(instance)}</div></div>\n` +
      '</body>\n</html>',
  };
}

export const widgetTypesResource = defineResource({
  name: 'widget-types',
  schema: itemSchema('widget-type', WidgetTypeSchema),
  routes: [
    {
      path: '/wp/v2/widget-types',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The widget types (administrators)',
          querystring: Query,
          response: Type.Unknown(),
          check: checkWidgetManager,
          async handle(call) {
            const fields = fieldList(call.query._fields as string | undefined);
            sendFields(call.reply, fields);
            return widgetTypes.map((type) =>
              pickItemFields(call.request, render(type, call.site), fields, true),
            );
          },
        },
      ],
    },
    {
      path: '/wp/v2/widget-types/(?P<id>[a-zA-Z0-9_-]+)',
      params: TypeId,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'One widget type (administrators)',
          querystring: Query,
          response: Type.Unknown(),
          check: checkType,
          async handle(call) {
            const type = widgetTypes.find((t) => t.id === call.params.id) as WidgetType;
            const fields = fieldList(call.query._fields as string | undefined);
            sendFields(call.reply, fields);
            return pickItemFields(call.request, render(type, call.site), fields);
          },
        },
      ],
    },
    {
      path: '/wp/v2/widget-types/(?P<id>[a-zA-Z0-9_-]+)/encode',
      params: TypeId,
      endpoints: [
        {
          methods: ['POST'],
          summary: 'A block widget’s form, preview and encoded settings from its settings (administrators)',
          body: EncodeBody,
          response: Type.Unknown(),
          check: checkType,
          handle: encode,
        },
      ],
    },
    {
      path: '/wp/v2/widget-types/(?P<id>[a-zA-Z0-9_-]+)/render',
      params: TypeId,
      endpoints: [
        {
          methods: ['POST'],
          summary: 'A page previewing a block widget (administrators)',
          body: RenderBody,
          response: Type.Unknown(),
          check: checkType,
          handle: renderPreview,
        },
      ],
    },
  ],
});
