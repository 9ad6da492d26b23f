import { createHmac } from 'node:crypto';
import type { Database, Queryable } from '../../../../platform/database.js';
import type { Instance } from './block-widget.js';
import type { PhpValue } from './php.js';

// The widgets' state as WordPress 6.1 keeps and moves it on a site whose theme registers no sidebar (the block
// theme Twenty Twenty-Three): every widget ends up in `wp_inactive_widgets`, the only sidebar there is.

export const INACTIVE = 'wp_inactive_widgets';

export interface WidgetState {
  /** `sidebars_widgets`: each sidebar's widget ids, in order (ids may repeat, as WordPress lets them). */
  sidebars: [string, string[]][];
  /** `widget_block`: each block widget's instance by number, in the order they were saved. */
  blocks: [number, Instance][];
}

export const blockNumber = (id: string) => {
  const match = /^block-(\d+)$/.exec(id);
  return match ? Number(match[1]) : undefined;
};

export const instanceOf = (state: WidgetState, number: number | undefined) =>
  state.blocks.find(([n]) => n === number)?.[1];

/** The registered widgets' ids: the block widgets that have an instance, in order. */
export const registered = (state: WidgetState) => state.blocks.map(([n]) => `block-${n}`);

/** next_widget_id_number(): one past the highest registered number (block-1 stands for "none yet"). */
export const nextNumber = (state: WidgetState) => Math.max(1, ...state.blocks.map(([n]) => n)) + 1;

/** wp_find_widgets_sidebar(): the first sidebar holding the id. */
export const sidebarOf = (state: WidgetState, id: string) =>
  state.sidebars.find(([, ids]) => ids.includes(id))?.[0];

export const widgetsOf = (state: WidgetState, sidebar: string) =>
  state.sidebars.find(([name]) => name === sidebar)?.[1] ?? [];

/**
 * retrieve_widgets() with no sidebar registered: ids that are no widget are dropped, every sidebar's widgets move
 * to the inactive one (its own first, then the others' in order), and registered widgets found in none are put in
 * front of them. `also` counts as registered (a widget made in this request, saved or not).
 */
export function retrieveWidgets(state: WidgetState, also: string[] = []): WidgetState {
  if (state.sidebars.length === 0) return state;
  const known = new Set([...registered(state), ...also]);
  const kept = state.sidebars.map(([name, ids]) => [name, ids.filter((id) => known.has(id))] as const);
  const inactive = [
    ...kept.filter(([name]) => name === INACTIVE || name.startsWith('orphaned_widgets')),
    ...kept.filter(([name]) => name !== INACTIVE && !name.startsWith('orphaned_widgets')),
  ].flatMap(([, ids]) => ids);
  const lost = [...known].filter((id) => !inactive.includes(id) && Number(/-(\d+)$/.exec(id)?.[1]) >= 2);
  return { ...state, sidebars: [[INACTIVE, [...lost, ...inactive]]] };
}

/** wp_assign_widget_to_sidebar(): out of the first other sidebar holding it, onto the end of `sidebar` (if any). */
export function assignWidget(state: WidgetState, id: string, sidebar: string): WidgetState {
  const sidebars = state.sidebars.map(([name, ids]) => [name, [...ids]] as [string, string[]]);
  const holder = sidebars.find(([name, ids]) => name !== sidebar && ids.includes(id));
  if (holder) holder[1].splice(holder[1].indexOf(id), 1);
  if (sidebar) {
    const target = sidebars.find(([name]) => name === sidebar);
    if (target) target[1].push(id);
    else sidebars.push([sidebar, [id]]);
  }
  return { ...state, sidebars };
}

/** WP_REST_Sidebars_Controller::update_item's `widgets`: the sidebar holds exactly these, taken from the others. */
export function setSidebarWidgets(state: WidgetState, sidebar: string, widgets: string[]): WidgetState {
  const sidebars = state.sidebars.map(([name, ids]) => [name, [...ids]] as [string, string[]]);
  const dropped: string[] = [];
  for (const entry of sidebars) {
    if (entry[0] === sidebar) dropped.push(...entry[1].filter((id) => !widgets.includes(id)));
    else entry[1] = entry[1].filter((id) => !widgets.includes(id));
  }
  const inactive = sidebars.find(([name]) => name === INACTIVE);
  if (inactive) inactive[1].push(...dropped);
  else if (dropped.length > 0) sidebars.push([INACTIVE, dropped]);
  const target = sidebars.find(([name]) => name === sidebar);
  if (target) target[1] = [...widgets];
  else sidebars.push([sidebar, [...widgets]]);
  return { ...state, sidebars };
}

export function saveInstance(state: WidgetState, number: number, instance: Instance): WidgetState {
  const blocks = [...state.blocks];
  const at = blocks.findIndex(([n]) => n === number);
  if (at >= 0) blocks[at] = [number, instance];
  else blocks.push([number, instance]);
  return { ...state, blocks };
}

export const deleteInstance = (state: WidgetState, number: number): WidgetState => ({
  ...state,
  blocks: state.blocks.filter(([n]) => n !== number),
});

/** The options rows, read and written in one transaction (the row lock orders concurrent writers). */
export class WidgetStore {
  constructor(readonly db: Database) {}

  private static async read(tx: Queryable, lock: boolean) {
    const { rows } = await tx.query<{ name: string; value: unknown }>(
      `SELECT name, value FROM content.widget_options ORDER BY name${lock ? ' FOR UPDATE' : ''}`,
    );
    const value = (name: string) => rows.find((row) => row.name === name)?.value;
    return {
      state: {
        sidebars: (value('sidebars_widgets') ?? []) as WidgetState['sidebars'],
        blocks: (value('widget_block') ?? []) as WidgetState['blocks'],
      },
      key: String(value('hash_key') ?? ''),
    };
  }

  /** Runs `change` on the state and stores what it answers as `state` (unless the same); answers its `result`. */
  update<T>(
    change: (state: WidgetState, hash: (data: string) => string) => { state: WidgetState; result: T },
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      const { state, key } = await WidgetStore.read(tx, true);
      const out = change(state, (data) => wpHash(key, data));
      const writes: [string, unknown, unknown][] = [
        ['sidebars_widgets', state.sidebars, out.state.sidebars],
        ['widget_block', state.blocks, out.state.blocks],
      ];
      for (const [name, before, after] of writes)
        if (JSON.stringify(before) !== JSON.stringify(after))
          await tx.query('UPDATE content.widget_options SET value = $2::json WHERE name = $1', [
            name,
            JSON.stringify(after),
          ]);
      return out.result;
    });
  }

  /** The hash of an instance's serialized bytes, as wp_hash() vouches for it. */
  async hasher(): Promise<(data: string) => string> {
    const { key } = await WidgetStore.read(this.db, false);
    return (data) => wpHash(key, data);
  }
}

const wpHash = (key: string, data: string) => createHmac('md5', key).update(data, 'utf8').digest('hex');

export type { PhpValue };
