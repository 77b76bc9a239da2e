/** Category and tag representations: standalone (§4.5.1) and embedded in events (§4.5.2). */
import type { JsonObject, RestCategoryFragment, RestEventCategoryRef, RestEventTagRef, RestTagFragment, RestUrls } from './types.ts';
import { homeRoot, nsUrl, wpV2Url } from './util.ts';

export type Taxonomy = 'category' | 'tag';

/** WordPress taxonomy names (§0.1). */
export const TAXONOMY_NAME: Record<Taxonomy, string> = { category: 'cal_events_cat', tag: 'post_tag' };
/** REST collection of each taxonomy in this namespace. */
export const TAXONOMY_COLLECTION: Record<Taxonomy, string> = { category: 'categories', tag: 'tags' };
/** `wp/v2` REST base of each taxonomy (term `_links`). */
const WP_V2_BASE: Record<Taxonomy, string> = { category: 'cal_events_cat', tag: 'tags' };

type AnyTerm = Pick<RestCategoryFragment, 'databaseId' | 'name' | 'slug' | 'description' | 'count'> & {
  parentId?: number | null;
  path?: readonly string[] | null;
};

/** `urls`: `self`, `collection` and, for a parented category, `up`. */
export function termUrls(term: AnyTerm, taxonomy: Taxonomy, urls: RestUrls): JsonObject {
  const collection = nsUrl(urls, `/${TAXONOMY_COLLECTION[taxonomy]}`);
  const out: JsonObject = { self: `${collection}/${term.databaseId}`, collection };
  if (taxonomy === 'category' && term.parentId) out.up = `${collection}/${term.parentId}`;
  return out;
}

/** Public archive page: `{home}/events/category/{path}/` or `{home}/tag/{slug}/`. */
export function termPublicUrl(term: AnyTerm, taxonomy: Taxonomy, urls: RestUrls): string {
  if (taxonomy === 'tag') return `${homeRoot(urls)}/tag/${term.slug}/`;
  const path = term.path && term.path.length ? term.path : [term.slug];
  return `${homeRoot(urls)}/events/category/${path.join('/')}/`;
}

/** WordPress core `_links` of a single term (pointing at `wp/v2`, as PHP does). */
export function termLinks(term: AnyTerm, taxonomy: Taxonomy, urls: RestUrls): JsonObject {
  const base = wpV2Url(urls, `/${WP_V2_BASE[taxonomy]}`);
  const tax = TAXONOMY_NAME[taxonomy];
  const links: JsonObject = {
    self: [{ href: `${base}/${term.databaseId}` }],
    collection: [{ href: base }],
    about: [{ href: wpV2Url(urls, `/taxonomies/${tax}`) }],
  };
  if (taxonomy === 'category' && term.parentId) links.up = [{ embeddable: true, href: `${base}/${term.parentId}` }];
  links['wp:post_type'] =
    taxonomy === 'category'
      ? [{ href: wpV2Url(urls, `/cal_events?${tax}=${term.databaseId}`) }]
      : [{ href: wpV2Url(urls, `/posts?tags=${term.databaseId}`) }, { href: wpV2Url(urls, `/cal_events?tags=${term.databaseId}`) }];
  links.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return links;
}

export interface TermPresentOptions {
  /** Add `_links` (single GET, create and update responses; not delete, not lists). */
  links: boolean;
}

/**
 * §4.5.1 standalone term: `id, count, description, name, slug, taxonomy, parent (categories only),
 * meta ([]), url, urls[, _links]`.
 */
export function presentTerm(
  node: RestCategoryFragment | RestTagFragment,
  taxonomy: Taxonomy,
  urls: RestUrls,
  opts: TermPresentOptions = { links: false },
): JsonObject {
  const term = node as AnyTerm;
  const out: JsonObject = {
    id: term.databaseId,
    count: term.count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: TAXONOMY_NAME[taxonomy],
  };
  if (taxonomy === 'category') out.parent = term.parentId ?? 0;
  out.meta = [];
  out.url = termPublicUrl(term, taxonomy, urls);
  out.urls = termUrls(term, taxonomy, urls);
  if (opts.links) out._links = termLinks(term, taxonomy, urls);
  return out;
}

/**
 * §4.5.2 term embedded in an event: `name, slug, term_group, term_taxonomy_id, taxonomy, description,
 * parent, count, filter ("raw"), id, urls` (tags carry `parent: 0`).
 */
export function presentEmbeddedTerm(node: RestEventCategoryRef | RestEventTagRef, taxonomy: Taxonomy, urls: RestUrls): JsonObject {
  const term = node as AnyTerm;
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.databaseId,
    taxonomy: TAXONOMY_NAME[taxonomy],
    description: term.description,
    parent: taxonomy === 'category' ? (term.parentId ?? 0) : 0,
    count: term.count,
    filter: 'raw',
    id: term.databaseId,
    urls: termUrls(term, taxonomy, urls),
  };
}
