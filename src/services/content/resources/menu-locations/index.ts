import { Type } from '@sinclair/typebox';
import { refused, restError } from '../../errors.js';
import { itemSchema } from '../../route-spec.js';
import { StringEnum } from '../../schemas.js';
import type { Site } from '../../site.js';
import { type Check, defineResource } from '../contract.js';
import { canEditMenus } from '../menus/access.js';

// WordPress's `/wp/v2/menu-locations` (WP_REST_Menu_Locations_Controller): the theme's registered places for a
// menu. Backlot has no theme, so none are registered, as a block theme (WordPress 6.1's default) registers none.

export interface MenuLocation {
  name: string;
  description: string;
}

/** The theme's menu locations (register_nav_menus): none. */
export const registeredLocations: readonly MenuLocation[] = [];

const LocationSchema = Type.Object({
  name: Type.String({ description: 'The location’s name.' }),
  description: Type.String({ description: 'What the location is, in words.' }),
  menu: Type.Integer({ description: 'The id of the menu shown there (0 for none).' }),
  _links: Type.Unknown(),
});
const ContextQuery = Type.Object({ context: Type.Optional(StringEnum(['view', 'embed', 'edit'] as const)) });

/** Only who may edit the theme's options (administrators) reads its locations. */
function checkReader({ me }: Check) {
  if (!canEditMenus(me))
    throw refused(!!me, 'rest_cannot_view', 'Sorry, you are not allowed to view menu locations.');
}

const render = (location: MenuLocation, site: Site) => ({
  name: location.name,
  description: location.description,
  menu: 0,
  _links: {
    self: [{ href: `${site.api}/wp/v2/menu-locations/${location.name}` }],
    collection: [{ href: `${site.api}/wp/v2/menu-locations` }],
  },
});

export const menuLocationsResource = defineResource({
  name: 'menu-locations',
  schema: itemSchema('menu-location', LocationSchema),
  routes: [
    {
      path: '/wp/v2/menu-locations',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The theme’s menu locations, by name (administrators; none here: `[]`)',
          querystring: ContextQuery,
          // An object keyed by location, or `[]` (an empty PHP array) when there are none.
          response: Type.Unknown(),
          check: checkReader,
          async handle({ site }) {
            if (registeredLocations.length === 0) return [];
            return Object.fromEntries(registeredLocations.map((l) => [l.name, render(l, site)]));
          },
        },
      ],
    },
    {
      path: '/wp/v2/menu-locations/(?P<location>[\\w-]+)',
      params: Type.Object({ location: Type.String({ description: 'The name of the location.' }) }),
      endpoints: [
        {
          methods: ['GET'],
          summary: 'One menu location (administrators)',
          querystring: ContextQuery,
          response: LocationSchema,
          check: checkReader,
          async handle({ params, site }) {
            const location = registeredLocations.find((l) => l.name === params.location);
            if (!location) throw restError(404, 'rest_menu_location_invalid', 'Invalid menu location.');
            return render(location, site);
          },
        },
      ],
    },
  ],
});
