import { Type } from '@sinclair/typebox';
import { pickItemFields } from '../../embed-param.js';
import { restError } from '../../errors.js';
import { fieldList, sendFields } from '../../http.js';
import { curies } from '../../render.js';
import { itemSchema } from '../../route-spec.js';
import { ContextEnum } from '../../schemas.js';
import type { Site } from '../../site.js';
import { type Call, defineResource } from '../contract.js';
import { checkWidgetManager } from '../widgets/index.js';
import {
  INACTIVE,
  registered,
  retrieveWidgets,
  setSidebarWidgets,
  type WidgetState,
  WidgetStore,
  widgetsOf,
} from '../widgets/store.js';

// WordPress 6.1's `/wp/v2/sidebars` (WP_REST_Sidebars_Controller) for administrators. The theme (Twenty
// Twenty-Three, a block theme) registers no sidebar, so the one sidebar there is `wp_inactive_widgets`; a sidebar
// id the theme does not register is 404 to read and, as in WordPress, may be written (its widgets then move back
// to the inactive sidebar on the next read).

const Html = (description: string) => Type.String({ description });
const SidebarSchema = Type.Object({
  id: Type.String({ description: 'The sidebar’s id.' }),
  name: Type.String({ description: 'The sidebar’s name.' }),
  description: Type.String({ description: 'What the sidebar is for.' }),
  class: Type.String({ description: 'A CSS class the widgets screen gives the sidebar.' }),
  before_widget: Html('HTML written before each widget.'),
  after_widget: Html('HTML written after each widget.'),
  before_title: Html('HTML written before a widget’s title.'),
  after_title: Html('HTML written after a widget’s title.'),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
    description: 'Whether the theme registers the sidebar.',
  }),
  widgets: Type.Array(Type.Union([Type.Object({}), Type.String()]), {
    description: 'The ids of the sidebar’s widgets, in order.',
  }),
});
const Query = Type.Object({
  context: Type.Optional(ContextEnum),
  _fields: Type.Optional(Type.String()),
});
const UpdateBody = Type.Object({
  widgets: Type.Optional(
    Type.Array(Type.Union([Type.Object({}), Type.String()]), {
      description: 'The ids of the widgets the sidebar holds, in order (taken out of other sidebars).',
    }),
  ),
});
const SidebarId = Type.Object({ id: Type.String({ description: 'The sidebar’s id.' }) });

const sidebarsOf = (call: Call) => new WidgetStore(call.store.db);

/** prepare_item_for_response: the inactive sidebar, or (after writing one the theme lacks) core's idless answer. */
function render(state: WidgetState, id: string | undefined, site: Site) {
  const api = `${site.api}/wp/v2`;
  const known = new Set(registered(state));
  const links = {
    collection: [{ href: `${api}/sidebars` }],
    self: [{ href: `${api}/sidebars/${id ?? ''}` }],
    'wp:widget': [{ embeddable: true, href: id ? `${api}/widgets?sidebar=${id}` : `${api}/widgets` }],
    curies,
  };
  return {
    ...(id ? { id, name: 'Inactive widgets' } : {}),
    description: '',
    class: '',
    before_widget: '',
    after_widget: '',
    before_title: '',
    after_title: '',
    status: 'inactive',
    widgets: id ? widgetsOf(state, id).filter((widget) => known.has(widget)) : [],
    _links: links,
  };
}

async function settled(call: Call) {
  return sidebarsOf(call).update((state) => {
    const next = retrieveWidgets(state);
    return { state: next, result: next };
  });
}

function answer(call: Call, item: Record<string, unknown>, collection = false) {
  const fields = fieldList(call.query._fields as string | undefined);
  sendFields(call.reply, fields);
  return pickItemFields(call.request, item, fields, collection);
}

export const sidebarsResource = defineResource({
  name: 'sidebars',
  schema: itemSchema('sidebar', SidebarSchema),
  routes: [
    {
      path: '/wp/v2/sidebars',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The sidebars (administrators): wp_inactive_widgets, as the theme registers none',
          querystring: Query,
          response: Type.Unknown(),
          check: checkWidgetManager,
          async handle(call) {
            const state = await settled(call);
            return state.sidebars
              .filter(([id]) => id === INACTIVE)
              .map(([id]) => answer(call, render(state, id, call.site), true));
          },
        },
      ],
    },
    {
      path: '/wp/v2/sidebars/(?P<id>[\\w-]+)',
      params: SidebarId,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'One sidebar (administrators)',
          querystring: Query,
          response: Type.Unknown(),
          check: checkWidgetManager,
          async handle(call) {
            const state = await settled(call);
            if (call.params.id !== INACTIVE)
              throw restError(404, 'rest_sidebar_not_found', 'No sidebar exists with that id.');
            return answer(call, render(state, INACTIVE, call.site));
          },
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Set which widgets a sidebar holds, in order (administrators)',
          body: UpdateBody,
          response: Type.Unknown(),
          check: checkWidgetManager,
          async handle(call) {
            const id = call.params.id ?? '';
            const widgets = call.body.widgets as unknown[] | undefined;
            const item = await sidebarsOf(call).update((state) => {
              const next = widgets
                ? setSidebarWidgets(
                    state,
                    id,
                    widgets.filter((w): w is string => typeof w === 'string'),
                  )
                : state;
              // Core's Allow header then looks for lost widgets, reading the sidebars as just written.
              return {
                state: retrieveWidgets(next),
                result: render(next, id === INACTIVE ? id : undefined, call.site),
              };
            });
            return answer(call, item);
          },
        },
      ],
    },
  ],
});
