/** Category and tag representations: standalone (§4.5.1), embedded in events (§4.5.2), and their list envelope. */
import { encodePairs, listHeaders, present, withQuery, type ListEnvelopeInput } from '../../presenters/envelope.ts';
import { homeRoot, nsUrl, wpV2Url, type JsonObject, type RestUrls } from '../../presenters/util.ts';
import type { WpResponse } from '../../wp/types.ts';

export type Taxonomy = 'category' | 'tag';

/** WordPress taxonomy names (§0.1). */
export const TAXONOMY_NAME: Record<Taxonomy, string> = { category: 'cal_events_cat', tag: 'post_tag' };
/** REST collection of each taxonomy in this namespace. */
export const TAXONOMY_COLLECTION: Record<Taxonomy, string> = { category: 'categories', tag: 'tags' };
/** `wp/v2` REST base of each taxonomy (term `_links`). */
const WP_V2_BASE: Record<Taxonomy, string> = { category: 'cal_events_cat', tag: 'tags' };

/**
 * A category or tag as any operation selects it (fragments RestCategory and RestTag, a `DeletedTerm`,
 * the terms embedded in RestEvent): tags have no `parentId`; only standalone categories have `path`
 * (without it the URL falls back to `[slug]`).
 */
export type AnyTerm = {
  readonly databaseId: number;
  readonly name: string;
  readonly slug: string;
  readonly description: string;
  readonly count: number;
  readonly parentId?: number | null;
  readonly path?: readonly string[] | null;
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
  term: AnyTerm,
  taxonomy: Taxonomy,
  urls: RestUrls,
  opts: TermPresentOptions = { links: false },
): JsonObject {
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
export function presentEmbeddedTerm(term: AnyTerm, taxonomy: Taxonomy, urls: RestUrls): JsonObject {
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

/** URL parameters of `GET /categories` and `GET /tags` the client sent (REC: carried; PHP carries none). */
export interface TermsUrlParams {
  per_page?: number | null;
  search?: string | null;
  exclude?: readonly number[] | null;
  include?: readonly number[] | null;
  order?: string | null;
  orderby?: string | null;
  hide_empty?: boolean | string | null;
  /** Categories only. */
  parent?: number | null;
  post?: number | null;
  event?: number | null;
  slug?: string | null;
}

const TERMS_ORDER = ['per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug'] as const;

/** `rest_url`, `next_rest_url`, `previous_rest_url` of a term list (§5.3). */
export function termListUrls(input: {
  base: string;
  page: number;
  totalPages: number;
  params?: TermsUrlParams | Record<string, unknown>;
}): { rest_url: string; next_rest_url?: string; previous_rest_url?: string } {
  const p = (input.params ?? {}) as Record<string, unknown>;
  const filters = encodePairs(present(TERMS_ORDER.map((k) => [k, p[k]] as const)), 'form');
  const pageUrl = (n: number) => withQuery(input.base, n <= 1 ? filters : filters ? `${filters}&page=${n}` : `page=${n}`);
  const out: { rest_url: string; next_rest_url?: string; previous_rest_url?: string } = { rest_url: withQuery(input.base, filters) };
  if (input.page < input.totalPages) out.next_rest_url = pageUrl(input.page + 1);
  if (input.page > 1) out.previous_rest_url = pageUrl(input.page - 1);
  return out;
}

/** §5.1 term envelope — different order: `{rest_url, total, total_pages, categories|tags, next_rest_url?, previous_rest_url?}`. */
export function termsEnvelope(taxonomy: Taxonomy, input: ListEnvelopeInput & { params?: TermsUrlParams | Record<string, unknown> }): JsonObject {
  const collection = TAXONOMY_COLLECTION[taxonomy];
  const urls = termListUrls({ base: nsUrl(input.urls, `/${collection}/`), page: input.page, totalPages: input.totalPages, params: input.params });
  const out: JsonObject = { rest_url: urls.rest_url, total: input.total, total_pages: input.totalPages, [collection]: [...input.items] };
  if (urls.next_rest_url !== undefined) out.next_rest_url = urls.next_rest_url;
  if (urls.previous_rest_url !== undefined) out.previous_rest_url = urls.previous_rest_url;
  return out;
}

/** `WpResponse` for `GET /categories` / `GET /tags`. */
export function termsListResponse(taxonomy: Taxonomy, input: ListEnvelopeInput & { params?: TermsUrlParams | Record<string, unknown> }): WpResponse {
  return { body: termsEnvelope(taxonomy, input), headers: listHeaders(input.total, input.totalPages) };
}
