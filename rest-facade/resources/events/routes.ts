/**
 * The `/events` routes: parameters → `EventFilter` / event inputs, one operation of
 * operations.graphql per handler, the answer shaped by presenter.ts.
 */
import { invalidParamsError, tableError } from '../../wp/errors.ts';
import type { WpRequest, WpResponse } from '../../wp/types.ts';
import { calContext, isRestError, listStatusParam, presentedPage, run, sentParams, toWpError, unwrap, type RestError, type RouteDeps } from '../common.ts';
import { bodyParam, intList, optionalNumber, pathId, recordId, statusEnum, statusEnumList, stringList, wireName } from '../params.ts';
import { linkedRefs } from '../linked-posts/input.ts';
import { eventsListResponse, presentEvent } from './presenter.ts';
import {
  CreateEventDocument,
  DeleteEventDocument,
  EventByIdDocument,
  EventsArchiveDocument,
  EventsArchiveIdsDocument,
  UpdateEventDocument,
  type RestEventFragment,
} from '../../generated/operations.ts';
import { postRoutes, type ResourceHandlers } from '../route-shapes.ts';
import { eventArgs } from './args.ts';
import { DATE_BOUND_NAMES } from '../../../src/domain/date-window.ts';
import { EdgeKeys } from '../../../src/domain/surrogate-keys.ts';
import type { PresentedPage } from '../../presenters/presented.ts';

const STRICT = ['1', 'true', 'on', 'yes'];

/** `GET /events` query parameters → `EventFilter`. */
function eventFilter(req: WpRequest) {
  const p = req.params;
  const filter: Record<string, unknown> = {};
  for (const bound of DATE_BOUND_NAMES) if (req.sent(wireName(bound))) filter[bound] = String(p[wireName(bound)]);
  filter.strictDates = STRICT.includes(String(p.strict_dates ?? 'false').trim().toLowerCase());
  if (req.sent('search')) filter.search = p.search;
  if (req.sent('categories')) filter.categories = stringList('categories', p.categories);
  if (req.sent('tags')) filter.tags = stringList('tags', p.tags);
  if (req.sent('venue')) filter.venues = intList('venue', p.venue);
  if (req.sent('organizer')) filter.organizers = intList('organizer', p.organizer);
  if (req.sent('featured')) filter.featured = p.featured;
  if (req.sent('status')) filter.statuses = statusEnumList('status', p.status);
  if (req.sent('include')) filter.include = intList('include', p.include);
  if (req.sent('post_parent')) filter.postParent = recordId('post_parent', p.post_parent);
  if (req.sent('geoloc')) filter.geoloc = p.geoloc;
  if (req.sent('geoloc_lat')) filter.geolocLat = optionalNumber(p.geoloc_lat) ?? 0;
  if (req.sent('geoloc_lng')) filter.geolocLng = optionalNumber(p.geoloc_lng) ?? 0;
  if (req.sent('ticketed')) filter.ticketed = p.ticketed;
  return filter;
}

export const listEvents = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
  const page = Number(req.params.page);
  const perPage = Number(req.params.per_page);
  const filter = eventFilter(req);
  const presented = await presentedPage(deps, req, 'event');
  const listed = presented?.warm ? await listPresented(deps, req, presented, filter, page, perPage) : null;
  // Else the page in one operation (the first page after a write or a start), its events kept.
  const { result, items } = listed ?? (await fetchEvents(deps, req, presented, { filter, page, perPage }));
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
};

type EventFilterVars = ReturnType<typeof eventFilter>;

/**
 * The page as IDs, its events taken from `presented`; those it lacks fetched in one operation (the
 * same filter, restricted to them) and kept. Null when one of them no longer matches by then (a
 * write in between): the caller then lists the page whole.
 */
async function listPresented(deps: RouteDeps, req: WpRequest, presented: PresentedPage, filter: EventFilterVars, page: number, perPage: number) {
  const result = unwrap(await run(deps, req, EventsArchiveIdsDocument, { filter, page, perPage }), 'event', req);
  const ids = result.edges.map(({ node }) => node.databaseId);
  const taken = ids.map((id) => presented.take(id));
  const missing = ids.filter((_, i) => taken[i] === undefined);
  const fetched = missing.length ? await fetchEvents(deps, req, presented, { filter: { ...filter, include: missing }, page: 1, perPage: missing.length }) : null;
  const byId = new Map(fetched?.result.edges.map(({ node }, i) => [node.databaseId, fetched.items[i]!]));
  const items = ids.map((id, i) => taken[i] ?? byId.get(id)).filter((item) => item !== undefined);
  if (items.length !== ids.length) return null;
  presented.replayKeys(calContext(req).surrogateKeys);
  return { result, items };
}

/**
 * Runs EventsArchive and presents its events; with `presented`, keeps each one with the surrogate
 * keys its edge recorded (EdgeKeys) and gives its kept form.
 */
async function fetchEvents(deps: RouteDeps, req: WpRequest, presented: PresentedPage | null, vars: { filter: EventFilterVars; page: number; perPage: number }) {
  const ctx = calContext(req);
  const keys = presented && ctx.surrogateKeys ? new EdgeKeys(ctx.surrogateKeys) : undefined;
  const result = unwrap(await run(deps, req, EventsArchiveDocument, vars, keys ? { ...ctx, surrogateKeys: keys } : ctx), 'event', req);
  const items = result.edges.map(({ node }, i) => {
    const body = presentEvent(node, req.urls, { jsonLd: false, currencyCode: deps.currencyCode });
    return presented ? presented.keep(node.databaseId, body, keys?.edge(i)) : body;
  });
  return { result, items };
}

/**
 * Single reads answer 403 for locked events (newer TEC, contract §6). A trashed event reaches here
 * only for a caller who may read it (administrators, editors, its author: §3.1, as TEC 6.2.6 answers
 * them, 200 with `status: trash`); the strict read refused everyone else with `NO_LONGER_AVAILABLE`.
 */
function presentSingle(deps: RouteDeps, req: WpRequest, node: RestEventFragment): WpResponse {
  if (node.locked) throw tableError('event-password-protected');
  return { body: presentEvent(node, req.urls, { jsonLd: true, currencyCode: deps.currencyCode }) };
}

const address = (req: WpRequest) =>
  req.pathParams.slug !== undefined ? { slug: req.pathParams.slug } : { id: pathId(req, () => tableError('rest-event-not-found', { id: req.params.id })) };
const addressParam = (req: WpRequest) => (req.pathParams.slug !== undefined ? 'slug' : 'id');

/**
 * The event an addressed read or write answered, or the error to throw. The contract answers an
 * unknown by-slug address with 400 on `slug`. (`strict: true` reads raise NotFoundError rather than
 * answer null; a null is mapped as one.)
 */
function addressed<T extends object>(req: WpRequest, value: T | null | RestError): T {
  if (value === null || isRestError(value)) {
    const error: RestError = value ?? { __typename: 'NotFoundError', code: 'NOT_FOUND', message: '' };
    if (error.__typename === 'NotFoundError' && addressParam(req) === 'slug') throw invalidParamsError([['slug', false]]);
    throw toWpError(error, 'event', req, addressParam(req));
  }
  return value;
}

export const getEvent = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
  const node = addressed(req, await run(deps, req, EventByIdDocument, address(req)));
  return presentSingle(deps, req, node);
};

/** Event write parameters → CreateEventInput / UpdateEventInput. */
function eventInput(req: WpRequest, onUpdate: boolean): Record<string, unknown> {
  const p = req.params;
  const input: Record<string, unknown> = {};
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
  for (const [rest, gql] of flags) if (req.sent(rest)) input[gql] = p[rest];
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

export const createEvent = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
  const { event } = unwrap(await run(deps, req, CreateEventDocument, { input: eventInput(req, false) }), 'event', req);
  return { status: 201, body: presentEvent(event, req.urls, { jsonLd: false, currencyCode: deps.currencyCode }) };
};

export const updateEvent = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
  const { event } = addressed(req, await run(deps, req, UpdateEventDocument, { ...address(req), input: eventInput(req, true) }));
  return { body: presentEvent(event, req.urls, { jsonLd: false, currencyCode: deps.currencyCode }) };
};

export const deleteEvent = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
  const { event } = addressed(req, await run(deps, req, DeleteEventDocument, address(req)));
  return { body: presentEvent(event, req.urls, { jsonLd: false, currencyCode: deps.currencyCode }) };
};

export const eventRoutes = postRoutes('/events', eventArgs);
export const eventHandlers: ResourceHandlers = { list: listEvents, get: getEvent, create: createEvent, update: updateEvent, remove: deleteEvent };
