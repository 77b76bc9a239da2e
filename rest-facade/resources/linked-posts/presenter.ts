/** What the venue (§4.3) and organizer (§4.4) representations share, and their list envelope. */
import { presentImage } from '../../presenters/image.ts';
import { defaultLock, redact, type LockCheck } from '../../presenters/redact.ts';
import { listHeaders, postEnvelope, stringifyValue, type ListEnvelopeInput } from '../../presenters/envelope.ts';
import type { RestOrganizerFragment, RestVenueFragment } from '../../generated/operations.ts';
import type { WpResponse } from '../../wp/types.ts';
import { ZERO_DATE, globalId, isEmptyValue, postUrl, siteRoot, wpStatus, type JsonObject, type RestUrls } from '../../presenters/util.ts';

/** A venue or an organizer, as the operations select them. */
export type LinkedPostFragment = RestVenueFragment | RestOrganizerFragment;

export interface LinkedPostPresentOptions {
  /** Add `json_ld` (single reads, and venues/organizers nested in a single-event read). */
  jsonLd?: boolean;
  /** Password lock rule (§3.2); default: the node's `locked` (else `hasPassword`). */
  isLocked?: LockCheck;
  /** Explicit lock decision for this record (wins over `isLocked`). */
  locked?: boolean | null;
}

function isLockedBy(node: LinkedPostFragment, opts: LinkedPostPresentOptions): boolean {
  if (typeof opts.locked === 'boolean') return opts.locked;
  return (opts.isLocked ?? defaultLock)(node);
}

/** What makes a venue or an organizer: its post type, the members only it has, the empty members it keeps. */
export interface LinkedPostShape {
  type: 'cal_venue' | 'cal_organizer';
  /** Its own members, between the shared ones and the global IDs; `withJsonLd` when `json_ld` is wanted. */
  members: (withJsonLd: boolean) => Array<[string, unknown]>;
  /** Members kept even when empty (the global IDs always are). */
  keep?: readonly string[];
}

/**
 * A venue or organizer in the samples' key order: empty members omitted (PHP `array_filter`) but
 * for `keep` and the global IDs, no `rest_url`; a locked record is redacted (§4.7).
 */
export function presentLinkedPost(node: LinkedPostFragment, urls: RestUrls, opts: LinkedPostPresentOptions, shape: LinkedPostShape): JsonObject {
  const locked = isLockedBy(node, opts);
  const gid = globalId(urls, node.databaseId);
  const pairs: Array<[string, unknown]> = [
    ['id', node.databaseId],
    ['author', String(node.authorId ?? 0)],
    ['status', wpStatus(node.status)],
    ['date', node.date],
    ['date_utc', node.dateUtc ?? ZERO_DATE],
    ['modified', node.modified],
    ['modified_utc', node.editedDateUtc ?? ZERO_DATE],
    ['url', postUrl(urls, shape.type, node.databaseId, node.status, node.slug)],
    [shape.type === 'cal_venue' ? 'venue' : 'organizer', node.name],
    ['description', node.description],
    ['excerpt', node.excerpt],
    ['slug', node.slug ?? ''],
    ['image', presentImage(node.image, siteRoot(urls))],
    ...shape.members(opts.jsonLd === true && !locked),
    ['global_id', gid],
    ['global_id_lineage', [gid]],
  ];
  // A locked record's description arrives empty (the core's password lock); TEC redacts it after
  // array_filter, so the key stays, as ''.
  const keep = new Set(['global_id', 'global_id_lineage', ...(shape.keep ?? []), ...(locked ? ['description'] : [])]);
  const out: JsonObject = {};
  for (const [k, v] of pairs) if (keep.has(k) || !isEmptyValue(v)) out[k] = v;
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
