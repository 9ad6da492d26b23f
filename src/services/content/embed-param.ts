/**
 * `_embed` as WordPress 5.4+ reads it (rest_parse_embed_param): absent → no embedding; empty, `1`, `true`,
 * `0` (PHP's falsy strings) → every embeddable link; otherwise a list of link relations (`author,wp:term`,
 * `_embed[]=author`), and only those are embedded. Unknown relation names are simply never matched.
 */
export type EmbedRels = true | string[];

export function parseEmbed(raw: unknown): EmbedRels | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) return raw.length ? raw.map(String) : true;
  const text = String(raw);
  if (text === '' || text === '0' || text === 'true' || text === '1') return true;
  const rels = text.split(/[\s,]+/).filter(Boolean);
  return rels.length ? rels : true;
}

/** rest_is_field_included: `field` is named, or a parent or a child of it is. */
export function fieldIncluded(field: string, fields: string[]): boolean {
  return fields.some((f) => f === field || f.startsWith(`${field}.`) || field.startsWith(`${f}.`));
}

/**
 * Whether an item carries `_links` (and so `_embedded`) under `_fields`: core's controllers add links only when
 * `_links` or, with `_embed`, `_embedded` is among the fields; then the links come back whole.
 */
export function linksWanted(fields: string[] | undefined, rels: EmbedRels | undefined): boolean {
  if (!fields?.length) return true;
  return fieldIncluded('_links', fields) || (rels !== undefined && fieldIncluded('_embedded', fields));
}

type Links = Record<string, { embeddable?: boolean }[]>;

/** The relations WordPress would embed from these links: those with an embeddable link, and on the list if any. */
export function embeddableRels(links: unknown, rels: EmbedRels): string[] {
  if (!links || typeof links !== 'object') return [];
  return Object.entries(links as Links)
    .filter(([rel, items]) => (rels === true || rels.includes(rel)) && items.some((l) => l.embeddable))
    .map(([rel]) => rel);
}

/** Whether one relation is asked for (to skip loading what will not be embedded). */
export const wants = (rels: EmbedRels, rel: string) => rels === true || rels.includes(rel);
