import type { FastifyRequest } from 'fastify';
import { pickFields } from './render.js';

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

/**
 * `_fields` as core applies it. One item: the fields are picked from the data and the links (kept apart from the
 * data) come back whole when linksWanted says so, else not at all. A collection: each item's links are merged
 * into its data first (prepare_response_for_collection), so `_links` is picked like any field (`_links.self`
 * keeps only self) and `_embedded` alone keeps nothing to embed. No `_fields`: the item as it is.
 */
export function pickItemFields<T extends object>(
  request: FastifyRequest,
  body: T,
  fields: string[] | undefined,
  collection = false,
): Record<string, unknown> | T {
  if (!fields?.length) return body;
  if (collection) return pickFields(body as Record<string, unknown>, fields);
  const { _links, ...data } = body as Record<string, unknown>;
  const picked = pickFields(data, fields);
  const rels = parseEmbed((request.query as Record<string, unknown> | undefined)?._embed);
  return _links !== undefined && linksWanted(fields, rels) ? { ...picked, _links } : picked;
}
