/** What the venue (§4.3) and organizer (§4.4) representations share, and their list envelope. */
import { presentImage } from '../../presenters/image.ts';
import { redact } from '../../presenters/redact.ts';
import { listHeaders, postEnvelope, stringifyValue, type ListEnvelopeInput } from '../../presenters/envelope.ts';
import type { RestOrganizerFragment, RestVenueFragment } from '../../generated/operations.ts';
import type { WpResponse } from '../../wp/types.ts';
import { ZERO_DATE, globalId, isEmptyValue, postUrl, siteRoot, wpStatus, type JsonObject, type RestUrls } from '../../presenters/util.ts';

/** A venue or an organizer, as the operations select them. */
export type LinkedPostFragment = RestVenueFragment | RestOrganizerFragment;

export interface LinkedPostPresentOptions {
  /** Add `json_ld` (single reads, and venues/organizers nested in a single-event read). */
  jsonLd?: boolean;
}

/** Writes `value` at `key` unless it is empty (PHP `array_filter`); `keep` writes it anyway. */
export type PutMember = (key: string, value: unknown, keep?: boolean) => void;

/** What makes a venue or an organizer: its post type, and the members only it has. */
export interface LinkedPostShape<Node extends LinkedPostFragment> {
  type: 'cal_venue' | 'cal_organizer';
  /** Its own members, between the shared ones and the global IDs, through `put`; `withJsonLd` when `json_ld` is wanted. */
  members: (put: PutMember, node: Node, urls: RestUrls, withJsonLd: boolean) => void;
}

/**
 * A venue or organizer in the samples' key order: empty members omitted (PHP `array_filter`) but
 * for the global IDs and the members a shape keeps, no `rest_url`; a locked record is redacted
 * (§4.7). Written member by member into the answer: a page presents a hundred or more of them, and
 * a list of pairs filtered through a set per record was most of their cost.
 */
export function presentLinkedPost<Node extends LinkedPostFragment>(node: Node, urls: RestUrls, opts: LinkedPostPresentOptions, shape: LinkedPostShape<Node>): JsonObject {
  // The core's decision (§3.2): password-protected and not opened by this request.
  const locked = node.locked;
  const gid = globalId(urls, node.databaseId);
  const out: JsonObject = {};
  const put: PutMember = (key, value, keep = false) => {
    if (keep || !isEmptyValue(value)) out[key] = value;
  };
  put('id', node.databaseId);
  put('author', String(node.authorId ?? 0));
  put('status', wpStatus(node.status));
  put('date', node.date);
  put('date_utc', node.dateUtc ?? ZERO_DATE);
  put('modified', node.modified);
  put('modified_utc', node.editedDateUtc ?? ZERO_DATE);
  put('url', postUrl(urls, shape.type, node.databaseId, node.status, node.slug));
  put(shape.type === 'cal_venue' ? 'venue' : 'organizer', node.name);
  // A locked record's description arrives empty (the core's password lock); TEC redacts it after
  // array_filter, so the key stays, as ''.
  put('description', node.description, locked);
  put('excerpt', node.excerpt);
  put('slug', node.slug ?? '');
  put('image', presentImage(node.image, siteRoot(urls)));
  shape.members(put, node, urls, opts.jsonLd === true && !locked);
  out.global_id = gid;
  out.global_id_lineage = [gid];
  return locked ? redact(out) : out;
}

/** URL parameters of `GET /venues` and `GET /organizers` (wire names; see {@link EventsUrlParams}). */
export interface LinkedPostsUrlParams {
  event?: number | null;
  has_events?: boolean | string | null;
  /** Effective status list; default `publish`. */
  status?: string | readonly string[] | null;
  /** REC-carried (PHP drops them), appended after the documented group. */
  search?: string | null;
  only_with_upcoming?: boolean | string | null;
}

const LINKED_FIRST = ['per_page', 'event', 'has_events', 'status'] as const;
const LINKED_SECOND = ['search', 'only_with_upcoming'] as const;

export interface LinkedPostsEnvelopeInput extends ListEnvelopeInput {
  params?: LinkedPostsUrlParams | Record<string, unknown>;
}

/** §5.1 `{venues|organizers, rest_url, next_rest_url?, previous_rest_url?, total, total_pages}`. */
export function linkedPostsEnvelope(kind: 'venue' | 'organizer', input: LinkedPostsEnvelopeInput): JsonObject {
  const p: Record<string, unknown> = { ...(input.params ?? {}) };
  p.per_page = input.perPage;
  p.status = stringifyValue(p.status) ?? 'publish';
  const collection = kind === 'venue' ? 'venues' : 'organizers';
  return postEnvelope(collection, input, LINKED_FIRST.map((k) => [k, p[k]] as const), LINKED_SECOND.map((k) => [k, p[k]] as const));
}

/** `WpResponse` for `GET /venues` / `GET /organizers`. */
export function linkedPostsListResponse(kind: 'venue' | 'organizer', input: LinkedPostsEnvelopeInput): WpResponse {
  return { body: linkedPostsEnvelope(kind, input), headers: listHeaders(input.total, input.totalPages) };
}
