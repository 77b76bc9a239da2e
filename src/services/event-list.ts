import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Context } from './context.ts';
import type { PostKind } from '../db/tables.ts';
import { wallClockToDate } from '../domain/wall-clock.ts';
import { DATE_BOUND_NAMES, DATE_BOUNDS, resolveEventWindow, type DateBoundValues } from '../domain/date-window.ts';
import { ValidationError } from '../domain/errors.ts';
import { geofenceBox } from '../domain/geo.ts';
import { parseSearchTerms, searchPhraseFault } from '../domain/search.ts';
import { resolveTermRefs, withDescendants } from './terms.ts';
import { listStatusWhere } from './visibility.ts';
import { keptListCount, type KeptCountPlan } from './event-list-count.ts';

export interface EventFilter extends DateBoundValues<string | null> {
  strictDates?: boolean | null;
  /** Apply the contract's default window when no date bound is given (default true). */
  defaultWindow?: boolean | null;
  search?: string | null;
  categories?: string[] | null;
  tags?: string[] | null;
  venues?: number[] | null;
  organizers?: number[] | null;
  featured?: boolean | null;
  statuses?: string[] | null;
  include?: number[] | null;
  postParent?: number | null;
  geoloc?: boolean | null;
  geolocLat?: number | null;
  geolocLng?: number | null;
  ticketed?: boolean | null;
  /** Recurring series: one row per occurrence (default) or one per series. */
  occurrences?: 'EXPAND' | 'SERIES' | null;
}

/** The normalized date bounds a list actually applied (the REST facade echoes them in `rest_url`). */
export type AppliedWindow = DateBoundValues<string>;

const textWhere = (word: string): Prisma.EventWhereInput => ({
  OR: [
    { title: { contains: word, mode: 'insensitive' } },
    { excerpt: { contains: word, mode: 'insensitive' } },
    { content: { contains: word, mode: 'insensitive' } },
  ],
});

async function assertPostsOfType(ctx: Context, ids: number[], type: PostKind, field: string) {
  const rows = await ctx.prisma.post.findMany({ where: { id: { in: ids }, type }, select: { id: true } });
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    throw new ValidationError(`Not ${type === 'EVENT' ? 'an event' : `a ${type.toLowerCase()}`} ID: ${missing.join(', ')}`, field, 'WRONG_KIND');
  }
}

/**
 * Translates a list filter into a Prisma query: the calendar's list semantics (contract §5.4/§5.5)
 * live here and nowhere else. `desc`: latest first (the past-events list).
 */
export async function buildEventListQuery(ctx: Context, filter: EventFilter, direction: 'asc' | 'desc' = 'asc') {
  const statusWhere = listStatusWhere<Prisma.EventWhereInput>(ctx, filter.statuses);
  const and: Prisma.EventWhereInput[] = [statusWhere, { hideFromListings: false }];
  const settings = ctx.settings;
  const window = resolveEventWindow(
    {
      ...filter,
      strictDates: filter.strictDates ?? false,
      include: Boolean(filter.include?.length),
      useDefaults: filter.defaultWindow ?? true,
    },
    { now: ctx.now, siteTimezone: settings.timezone, cutoff: settings.multiDayCutoff },
  );
  const [field] = window.invalid;
  if (field !== undefined) {
    throw new ValidationError(`Invalid date: ${field}`, field, 'INVALID_DATE');
  }
  const local = settings.timezoneMode === 'event';
  // Mode `event` compares event-local wall clocks with site-local bounds; mode `site` compares UTC.
  const b = local ? window.bounds : window.boundsUtc;
  const start = local ? 'startLocal' : 'startUtc';
  const end = local ? 'endLocal' : 'endUtc';
  for (const bound of DATE_BOUND_NAMES) {
    const wall = b[bound];
    const { edge, op } = DATE_BOUNDS[bound];
    if (wall) and.push({ [edge === 'start' ? start : end]: { [op]: wallClockToDate(wall) } });
  }

  if (filter.search !== undefined && filter.search !== null) {
    const fault = searchPhraseFault(filter.search);
    if (fault) throw new ValidationError(fault.message, 'search', fault.code);
    const { include, exclude } = parseSearchTerms(filter.search);
    for (const word of include) and.push(textWhere(word));
    for (const word of exclude) and.push({ NOT: textWhere(word) });
  }
  let categories: number[] = [];
  if (filter.categories?.length) {
    categories = [...new Set(await resolveTermRefs(ctx, 'CATEGORY', filter.categories, 'categories'))];
    const ids = await withDescendants(ctx, categories);
    and.push({ categories: { some: { categoryId: { in: ids } } } });
  }
  if (filter.tags?.length) {
    const ids = await resolveTermRefs(ctx, 'TAG', filter.tags, 'tags');
    and.push({ tags: { some: { tagId: { in: ids } } } });
  }
  if (filter.venues?.length) {
    await assertPostsOfType(ctx, filter.venues, 'VENUE', 'venue');
    and.push({ venues: { some: { venueId: { in: filter.venues } } } });
  }
  if (filter.organizers?.length) {
    await assertPostsOfType(ctx, filter.organizers, 'ORGANIZER', 'organizer');
    and.push({ organizers: { some: { organizerId: { in: filter.organizers } } } });
  }
  if (filter.featured !== undefined && filter.featured !== null) and.push({ featured: filter.featured });
  if (filter.include?.length) and.push({ id: { in: filter.include } });
  if (filter.postParent !== undefined && filter.postParent !== null) {
    await assertPostsOfType(ctx, [filter.postParent], 'EVENT', 'postParent');
    and.push({ parentId: filter.postParent });
  }
  if (filter.ticketed === true) {
    throw new ValidationError('No ticketing module is active: events cannot be filtered by tickets.', 'ticketed', 'TICKETING_UNAVAILABLE');
  }
  if (filter.geoloc) {
    const lat = filter.geolocLat || 0;
    const lng = filter.geolocLng || 0;
    if (lat && lng) {
      const box = geofenceBox(lat, lng);
      and.push({
        venues: {
          some: {
            venue: {
              status: 'publish',
              latitude: { gte: box.minLat, lte: box.maxLat },
              longitude: { gte: box.minLng, lte: box.maxLng },
            },
          },
        },
      });
    } else if (lat || lng) {
      and.push({ venues: { some: { venue: { latitude: { not: null }, longitude: { not: null } } } } });
    }
  }

  const orderBy = eventListOrder(ctx, filter, direction);
  const where = filter.occurrences === 'SERIES' ? onePerSeries(and) : ({ AND: and } as Prisma.EventWhereInput);
  // The kept counts answer the public list by event-local dates, in at most one category: the
  // status, the listing and the bounds are all its conditions (any other filter adds one).
  const bounds = localBounds(b);
  const counted =
    local &&
    filter.occurrences !== 'SERIES' &&
    publishedOnly(statusWhere) &&
    categories.length <= 1 &&
    and.length === 2 + bounds.length + categories.length;
  const plan: KeptCountPlan | null = counted ? { category: categories[0] ?? 0, bounds } : null;
  const count = plan ? () => keptListCount(ctx, plan, where) : undefined;
  return { where, orderBy, window: window.applied, count };
}

/** The status condition lists published events only (what the kept counts count). */
function publishedOnly(where: Prisma.EventWhereInput): boolean {
  const status = where.status as { in?: unknown } | undefined;
  return Object.keys(where).length === 1 && Array.isArray(status?.in) && status.in.length > 0 && status.in.every((s) => s === 'publish');
}

const localBounds = (b: DateBoundValues<string>): KeptCountPlan['bounds'] =>
  DATE_BOUND_NAMES.flatMap((bound) => (b[bound] ? [{ bound, wall: b[bound] }] : []));

/**
 * The order of an event list: by start (the time zone mode's start column), or by publication
 * date when listing given IDs (`include`); ties by ID, so the order is total (keyset cursors,
 * schema/keyset.ts, follow it).
 */
export function eventListOrder(ctx: Context, filter: Pick<EventFilter, 'include'>, direction: 'asc' | 'desc'): Prisma.EventOrderByWithRelationInput[] {
  const start = ctx.settings.timezoneMode === 'event' ? 'startLocal' : 'startUtc';
  return filter.include?.length ? [{ dateUtc: direction }, { id: direction }] : [{ [start]: direction }, { id: direction }];
}

/**
 * One row per series: single events matching the filters, and series rows (status and listing
 * checked on the row itself) with at least one occurrence matching them. An EXISTS on the
 * occurrence table's series index per candidate series.
 */
function onePerSeries(and: Prisma.EventWhereInput[]): Prisma.EventWhereInput {
  const [status = {}, listed = {}] = and;
  return {
    OR: [
      { AND: [...and, { occurrence: { is: null } }] },
      { AND: [status, listed, { recurrenceStart: { not: null } }, { seriesOccurrences: { some: { event: { AND: and } } } }] },
    ],
  };
}
