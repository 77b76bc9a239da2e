/**
 * The `/events` endpoints, one object each (endpoint.ts): the routes with their argument tables
 * (args.ts), the operation of operations.graphql each runs, its parameters → `EventFilter` / event
 * inputs, and its presenter (presenter.ts).
 */
import { invalidParamsError, tableError } from '../../wp/errors.ts';
import type { WpRequest } from '../../wp/types.ts';
import { endpoint, ID, SLUG, UPDATE, writePermission, type Endpoint, type RouteDeps } from '../endpoint.ts';
import {
  bodyParam,
  flag,
  intList,
  listStatusParam,
  optionalNumber,
  pageVariables,
  pathId,
  recordId,
  sentParams,
  statusEnum,
  statusEnumList,
  stringList,
  wireName,
  type Building,
} from '../params.ts';
import { linkedRefs } from '../linked-posts/input.ts';
import { eventsListResponse, presentEvent } from './presenter.ts';
import {
  CreateEventDocument,
  DeleteEventDocument,
  EventByIdDocument,
  EventsArchiveDocument,
  UpdateEventDocument,
  type CreateEventInput,
  type EventFilter,
  type UpdateEventInput,
} from '../../generated/operations.ts';
import { eventArgs } from './args.ts';
import { DATE_BOUND_NAMES } from '../../../src/domain/date-window.ts';

const EVENTS = '/events';
const BY_ID = `${EVENTS}/${ID}`;
const BY_SLUG = `${EVENTS}/by-slug/${SLUG}`;

const STRICT = ['1', 'true', 'on', 'yes'];

/** `GET /events` query parameters → `EventFilter`. */
function eventFilter(req: WpRequest): EventFilter {
  const p = req.params;
  const filter: Building<EventFilter> = {};
  for (const bound of DATE_BOUND_NAMES) if (req.sent(wireName(bound))) filter[bound] = String(p[wireName(bound)]);
  filter.strictDates = STRICT.includes(String(p.strict_dates ?? 'false').trim().toLowerCase());
  if (req.sent('search')) filter.search = String(p.search);
  if (req.sent('categories')) filter.categories = stringList('categories', p.categories);
  if (req.sent('tags')) filter.tags = stringList('tags', p.tags);
  if (req.sent('venue')) filter.venues = intList('venue', p.venue);
  if (req.sent('organizer')) filter.organizers = intList('organizer', p.organizer);
  if (req.sent('featured')) filter.featured = flag(p.featured);
  if (req.sent('status')) filter.statuses = statusEnumList('status', p.status);
  if (req.sent('include')) filter.include = intList('include', p.include);
  if (req.sent('post_parent')) filter.postParent = recordId('post_parent', p.post_parent);
  if (req.sent('geoloc')) filter.geoloc = flag(p.geoloc);
  if (req.sent('geoloc_lat')) filter.geolocLat = optionalNumber(p.geoloc_lat) ?? 0;
  if (req.sent('geoloc_lng')) filter.geolocLng = optionalNumber(p.geoloc_lng) ?? 0;
  if (req.sent('ticketed')) filter.ticketed = flag(p.ticketed);
  return filter;
}

/** The addressed event: `/{id}` or `/by-slug/{slug}`. */
const address = (req: WpRequest) =>
  req.pathParams.slug !== undefined ? { slug: req.pathParams.slug } : { id: pathId(req, () => tableError('rest-event-not-found', { id: req.params.id })) };

/** Event write parameters → UpdateEventInput (and CreateEventInput, which has the same members). */
function eventInput(req: WpRequest, onUpdate: boolean): Building<UpdateEventInput> {
  const p = req.params;
  const input: Building<UpdateEventInput> = {};
  const copy = [
    ['title', 'title'],
    ['description', 'description'],
    ['excerpt', 'excerpt'],
    ['date', 'date'],
    ['date_utc', 'dateUtc'],
    ['timezone', 'timezone'],
    ['start_date', 'startDate'],
    ['end_date', 'endDate'],
    ['image', 'image'],
    ['website', 'website'],
  ] as const;
  for (const [rest, gql] of copy) if (req.sent(rest) && p[rest] !== null && p[rest] !== undefined) input[gql] = String(p[rest]);
  const flags = [
    ['all_day', 'allDay'],
    ['show_map', 'showMap'],
    ['show_map_link', 'showMapLink'],
    ['hide_from_listings', 'hideFromListings'],
    ['sticky', 'sticky'],
    ['featured', 'featured'],
  ] as const;
  for (const [rest, gql] of flags) if (req.sent(rest)) input[gql] = flag(p[rest]);
  if (req.sent('status')) input.status = statusEnum('status', p.status);
  if (req.sent('author')) input.authorId = recordId('author', p.author);
  if (req.sent('cost')) {
    const cost = p.cost;
    if (cost !== null && typeof cost === 'object' && !Array.isArray(cost)) throw invalidParamsError([['cost', false]]);
    input.cost = (Array.isArray(cost) ? cost : [cost]).filter((c) => c !== null && c !== undefined).map(String);
  }
  for (const name of ['categories', 'tags'] as const) {
    if (req.sent(name) && p[name] !== null) input[name] = stringList(name, p[name]);
  }
  const venues = linkedRefs('venue', req.sent('venue') ? p.venue : undefined, onUpdate);
  if (venues) input.venues = venues;
  const organizers = req.sent('organizer') ? linkedRefs('organizer', p.organizer, true) : undefined;
  if (organizers) input.organizers = organizers;
  if (onUpdate && req.pathParams.slug !== undefined) {
    const newSlug = bodyParam(req, 'slug');
    if (newSlug !== undefined && newSlug !== null) {
      if (typeof newSlug !== 'string' || newSlug === '') throw invalidParamsError([['slug', false]]);
      input.slug = newSlug;
    }
  } else if (req.sent('slug')) input.slug = String(p.slug);
  return input;
}

/** A written event, as writes answer it. */
const presentWritten = (deps: RouteDeps, req: WpRequest, event: Parameters<typeof presentEvent>[0]) =>
  presentEvent(event, req.urls, { jsonLd: false, currencyCode: deps.currencyCode });

/** In the namespace index's order: the collection, then each item's read, delete and update. */
export const eventEndpoints: readonly Endpoint[] = [
  endpoint({
    name: 'list',
    methods: ['GET'],
    routes: [{ path: EVENTS, args: eventArgs.list }],
    permission: 'public',
    resource: 'event',
    operation: EventsArchiveDocument,
    variables: (req) => ({ filter: eventFilter(req), ...pageVariables(req) }),
    present: (result, req, deps) => {
      const items = result.edges.map(({ node }) => presentEvent(node, req.urls, { jsonLd: false, currencyCode: deps.currencyCode }));
      const page = Number(req.params.page);
      if (page > 1 && items.length === 0) throw tableError('event-archive-page-not-found');
      return eventsListResponse({
        items,
        total: result.totalCount,
        totalPages: result.totalPages,
        page,
        perPage: result.perPage,
        window: result.window,
        params: { ...sentParams(req, ['search', 'geoloc', 'geoloc_lat', 'geoloc_lng', 'status', 'post_parent', 'include', 'venue', 'organizer', 'featured', 'categories', 'tags', 'ticketed', 'strict_dates']), status: listStatusParam(req) },
        urls: req.urls,
      });
    },
  }),
  endpoint({
    name: 'create',
    methods: ['POST'],
    routes: [{ path: EVENTS, args: eventArgs.create }],
    permission: writePermission,
    resource: 'event',
    operation: CreateEventDocument,
    // The argument table requires title, start_date and end_date: the input has them.
    variables: (req) => ({ input: eventInput(req, false) as CreateEventInput }),
    present: ({ event }, req, deps) => ({ status: 201, body: presentWritten(deps, req, event) }),
  }),
  endpoint({
    name: 'get',
    methods: ['GET'],
    routes: [{ path: BY_ID, args: eventArgs.get }, { path: BY_SLUG, args: eventArgs.getBySlug }],
    permission: 'public',
    resource: 'event',
    operation: EventByIdDocument,
    variables: address,
    /**
     * Single reads answer 403 for locked events (newer TEC, contract §6). A trashed event reaches here
     * only for a caller who may read it (administrators, editors, its author: §3.1, as TEC 6.2.6 answers
     * them, 200 with `status: trash`); the strict read refused everyone else with `NO_LONGER_AVAILABLE`.
     */
    present: (event, req, deps) => {
      if (event.locked) throw tableError('event-password-protected');
      return { body: presentEvent(event, req.urls, { jsonLd: true, currencyCode: deps.currencyCode }) };
    },
  }),
  endpoint({
    name: 'remove',
    methods: ['DELETE'],
    routes: [{ path: BY_ID, args: eventArgs.delete }, { path: BY_SLUG, args: eventArgs.deleteBySlug }],
    permission: writePermission,
    resource: 'event',
    operation: DeleteEventDocument,
    variables: address,
    present: ({ event }, req, deps) => ({ body: presentWritten(deps, req, event) }),
  }),
  endpoint({
    name: 'update',
    methods: UPDATE,
    routes: [{ path: BY_ID, args: eventArgs.update }, { path: BY_SLUG, args: eventArgs.updateBySlug }],
    permission: writePermission,
    resource: 'event',
    operation: UpdateEventDocument,
    variables: (req) => ({ ...address(req), input: eventInput(req, true) }),
    present: ({ event }, req, deps) => ({ body: presentWritten(deps, req, event) }),
  }),
];
