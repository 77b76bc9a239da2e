import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Context } from './context.ts';
import type { LinkedKind } from '../db/tables.ts';
import { inTransaction, type TransactionClient } from '../db/transactions.ts';
import { forcedStatus, ALL_STATUSES, type Status } from '../domain/capabilities.ts';
import { inferCurrency, MAX_COST_LENGTH } from '../domain/cost.ts';
import { dateToWallClock } from '../domain/wall-clock.ts';
import { ForbiddenError, ValidationError } from '../domain/errors.ts';
import { computeEventDates } from '../domain/event-dates.ts';
import { slugify, untrashedSlug } from '../domain/slug.ts';
import { MAX_TITLE_LENGTH } from '../domain/text.ts';
import { resolveTimezone } from '../domain/timezone.ts';
import { eventTermChanges, publishChange, termChanges, type Change } from './changes.ts';
import { recorded } from './change-log.ts';
import { requireEditable, requirePostCreator, requireTrashable, resolveAuthor } from './authz.ts';
import { stamp } from './clock.ts';
import { prefetchImages, resolveImageRef } from './images.ts';
import type { EventInput, LinkedRef } from './event-input.ts';
import { createLinkedPost } from './linked-posts.ts';
import { insertPost, locatePost, lookupWhere, writeTrashed, type PostAddress } from './posts.ts';
import { resolvePublicationDate } from './publication.ts';
import {
  forEachSeriesMember,
  materializeSeries,
  prepareSeries,
  seriesData,
  updateSeries,
  type RecurrenceScope,
} from './recurrence.ts';
import { retryOnVanishedLink, retryOnWriteConflict } from './retry.ts';
import { writeWithUniqueSlug } from './slugs.ts';
import { resolveOrCreateTermsForEvent } from './terms.ts';
import { filterHtmlFields } from './text-work.ts';

/** What WordPress filters on save for callers without `unfiltered_html` (title_save_pre, content_save_pre, excerpt_save_pre). */
const HTML_FIELDS = { title: 'data', description: 'post', excerpt: 'post' } as const;

function nonEmpty(value: string | null | undefined, field: string, max?: number) {
  if (value === undefined || value === null) return;
  if (!value.trim()) throw new ValidationError(`${field} cannot be empty.`, field, 'EMPTY');
  if (max && value.length > max) throw new ValidationError(`${field} is too long (${max} characters at most).`, field, 'TOO_LONG');
}

function validateInput(input: EventInput, creating: boolean) {
  if (creating) {
    const missing = (['title', 'startDate', 'endDate'] as const).filter((k) => !input[k]);
    const [first] = missing;
    if (first) {
      throw new ValidationError(`Required: ${missing.join(', ')}`, first, 'REQUIRED');
    }
  }
  nonEmpty(input.title, 'title', MAX_TITLE_LENGTH);
  // An empty description clears it (an imported occurrence edited to have none); the REST API
  // refuses `""` in its own argument check, as the plugin does.
  nonEmpty(input.excerpt, 'excerpt');
  nonEmpty(input.slug, 'slug', 200);
  if (input.cost && input.cost.reduce((n, c) => n + c.length, 0) > MAX_COST_LENGTH) {
    throw new ValidationError(`cost is too long (${MAX_COST_LENGTH} characters at most).`, 'cost', 'TOO_LONG');
  }
  if (input.status !== undefined && input.status !== null && !ALL_STATUSES.includes(input.status as Status)) {
    throw new ValidationError(`Unknown status: ${input.status}`, 'status', 'UNKNOWN_STATUS');
  }
  if (input.slug && !slugify(input.slug)) throw new ValidationError('The slug is empty once normalized.', 'slug', 'EMPTY');
  if (input.website) {
    try {
      const u = new URL(input.website);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new ValidationError('website must be a valid URL.', 'website', 'INVALID_URL');
    }
  }
}

function timezoneOf(input: EventInput, fallback: string): string {
  if (input.timezone === undefined || input.timezone === null || input.timezone === '') return fallback;
  const tz = resolveTimezone(input.timezone);
  if (!tz) throw new ValidationError(`Unknown time zone: ${input.timezone}`, 'timezone', 'INVALID_TIMEZONE');
  return tz.name;
}

/**
 * The types of the posts given by ID as venues or organizers: one query for both lists, so an event
 * write checks them in one round trip.
 */
async function linkedTypes(ctx: Context, input: EventInput): Promise<Map<number, string>> {
  const ids = [...(input.venues ?? []), ...(input.organizers ?? [])].flatMap((ref) => (ref.id ? [ref.id] : []));
  if (!ids.length) return new Map();
  const rows = await ctx.prisma.post.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, type: true } });
  return new Map(rows.map((r) => [r.id, r.type]));
}

async function resolveLinked(ctx: Context, kind: LinkedKind, refs: LinkedRef[], types: Map<number, string>): Promise<number[]> {
  const field = kind === 'VENUE' ? 'venue' : 'organizer';
  const ids: number[] = [];
  for (const ref of refs) {
    if (ref.id) {
      if (types.get(ref.id) !== kind) throw new ValidationError(`${ref.id} is not a valid ${field} ID.`, field, 'WRONG_KIND');
      ids.push(ref.id);
    } else if (ref.create) {
      try {
        ids.push(await createLinkedPost(ctx, kind, ref.create));
      } catch (error) {
        if (error instanceof ValidationError) throw new ValidationError(error.message, field, error.code);
        throw error;
      }
    }
  }
  return [...new Set(ids)];
}

function costData(cost: string[]) {
  const values = cost.map((c) => c.trim()).filter(Boolean);
  const currency = values.length ? inferCurrency(values[0]) : { symbol: '', position: '' };
  return { cost: values, currencySymbol: currency.symbol, currencyPosition: currency.position };
}

/** The links an event write sets, in link order (undefined: left as they are; terms ascending, see below). */
interface Links {
  venues?: number[];
  organizers?: number[];
  categories?: number[];
  tags?: number[];
}

/** The links an update replaces, and the image and parent it sets. */
type RelationData = Pick<Prisma.EventUncheckedUpdateInput, 'venues' | 'organizers' | 'categories' | 'tags'> & { imageId?: number | null; parentId?: number | null };

async function relationData(ctx: Context, input: EventInput, links: Links = {}) {
  const data: RelationData = {};
  const types = await linkedTypes(ctx, input);
  if (input.venues) {
    const ids = (links.venues = await resolveLinked(ctx, 'VENUE', input.venues, types));
    data.venues = { deleteMany: {}, create: ids.map((venueId, position) => ({ venueId, position })) };
  }
  if (input.organizers) {
    const ids = (links.organizers = await resolveLinked(ctx, 'ORGANIZER', input.organizers, types));
    data.organizers = { deleteMany: {}, create: ids.map((organizerId, position) => ({ organizerId, position })) };
  }
  if (input.categories) {
    // Ascending IDs: the count triggers lock terms in link order, so all writers lock in one order.
    links.categories = ascending(await resolveOrCreateTermsForEvent(ctx, 'CATEGORY', input.categories));
    data.categories = { deleteMany: {}, create: links.categories.map((categoryId) => ({ categoryId })) };
  }
  if (input.tags) {
    links.tags = ascending(await resolveOrCreateTermsForEvent(ctx, 'TAG', input.tags));
    data.tags = { deleteMany: {}, create: links.tags.map((tagId) => ({ tagId })) };
  }
  if (input.image !== undefined && input.image !== null) data.imageId = await resolveImageRef(ctx, input.image);
  if (input.parentId !== undefined) {
    if (input.parentId) {
      const parent = await ctx.prisma.post.findUnique({ where: { id: input.parentId }, select: { type: true } });
      if (parent?.type !== 'EVENT') throw new ValidationError(`${input.parentId} is not an event ID.`, 'postParent', 'WRONG_KIND');
    }
    data.parentId = input.parentId || null;
  }
  return data;
}

function scalarData(input: EventInput) {
  const data: Partial<Prisma.EventUncheckedCreateInput> = {};
  if (input.title) data.title = input.title.trim();
  if (input.description !== undefined && input.description !== null) data.content = input.description;
  if (input.excerpt !== undefined && input.excerpt !== null) data.excerpt = input.excerpt;
  if (input.cost !== undefined && input.cost !== null) Object.assign(data, costData(input.cost));
  if (input.website !== undefined && input.website !== null) data.website = input.website;
  for (const flag of ['showMap', 'showMapLink', 'hideFromListings', 'sticky', 'featured'] as const) {
    if (input[flag] !== undefined && input[flag] !== null) data[flag] = input[flag];
  }
  return data;
}

function eventDates(ctx: Context, start: string, end: string, allDay: boolean, timezone: string) {
  const dates = computeEventDates({ start, end, allDay, timezone, multiDayCutoff: ctx.settings.multiDayCutoff, now: ctx.now });
  if (!dates) throw new ValidationError('Invalid startDate or endDate.', 'startDate', 'INVALID_DATE');
  if ('invalid' in dates) {
    const field = (dates as { invalid: string }).invalid;
    throw new ValidationError(`Invalid ${field}.`, field, 'INVALID_DATE');
  }
  return {
    startLocal: dates.startLocal,
    endLocal: dates.endLocal,
    startUtc: dates.startUtc,
    endUtc: dates.endUtc,
    timezone: dates.timezone,
    allDay,
  };
}

/** The foreign keys of an event's links and author: refused when the record went away meanwhile. */
const EVENT_LINKS = /`(?:EventCategory|EventTag|EventVenue|EventOrganizer)_\w+_fkey`|`Event_(?:authorId|imageId)_fkey`/;

/**
 * Creates an event (and its series); run again when a record it links vanished meanwhile (retry.ts).
 * Only the event's own insert can be refused that way, before anything else is written.
 */
export async function createEvent(ctx: Context, input: EventInput): Promise<number> {
  ctx = await prefetchImages(ctx, imagesOf(input));
  return retryOnVanishedLink(() => insertEvent(ctx, input), EVENT_LINKS);
}

/** The `image` values of an event write: its own and its new venues' and organizers'. */
const imagesOf = (input: EventInput) => [input.image, ...[...(input.venues ?? []), ...(input.organizers ?? [])].map((ref) => ref.create?.image)];

const insertEvent = recorded(async (ctx: Context, input: EventInput): Promise<number> => {
  input = await filterHtmlFields(ctx.viewer, input, HTML_FIELDS);
  // Parameters are validated before permissions, as WordPress does (contract §1.3).
  validateInput(input, true);
  const timezone = timezoneOf(input, ctx.settings.timezone);
  const dates = eventDates(ctx, input.startDate!, input.endDate!, input.allDay ?? false, timezone);
  // Recurring series: checked before anything is written; the row takes its first occurrence's dates.
  const series = input.recurrence ? prepareSeries(ctx, input.recurrence, dates.startLocal, timezone) : null;
  const viewer = requirePostCreator(ctx);
  const authorId = await resolveAuthor(ctx, input.authorId, null);
  const requested = forcedStatus(viewer, (input.status ?? undefined) as Status | undefined, true)!;
  const published = await resolvePublicationDate(ctx, { date: input.date, dateUtc: input.dateUtc, timezone, status: requested });
  const links: Links = {};
  // The links are inserted by createMany below, one statement each: a nested create would read the
  // new row back once more.
  const { venues: _v, organizers: _o, categories: _c, tags: _t, ...relations } = await relationData(ctx, input, links);
  const now = stamp(ctx);
  const data = {
    ...scalarData(input),
    ...dates,
    ...(series ? seriesData(series, dates) : {}),
    ...relations,
    title: input.title!.trim(),
    ...published,
    authorId,
    modifiedUtc: now.utc,
    modifiedLocal: now.local,
    // REST-created events store the map flags as sent, false otherwise (sample POST_events_201_minimal).
    showMap: input.showMap ?? false,
    showMapLink: input.showMapLink ?? false,
  };
  const needsSlug = input.slug || (published.status !== 'draft' && published.status !== 'pending');
  const insert = (tx: TransactionClient, slug: string | null) =>
    insertPost(tx, 'EVENT', async (id) => {
      await tx.event.create({ data: { ...data, id, slug } as Prisma.EventUncheckedCreateInput, select: { id: true } });
      const { venues = [], organizers = [], categories = [], tags = [] } = links;
      if (venues.length) await tx.eventVenue.createMany({ data: venues.map((venueId, position) => ({ eventId: id, venueId, position })) });
      if (organizers.length) await tx.eventOrganizer.createMany({ data: organizers.map((organizerId, position) => ({ eventId: id, organizerId, position })) });
      // Ascending, as relationData orders them: the count triggers lock terms in link order.
      if (categories.length) await tx.eventCategory.createMany({ data: categories.map((categoryId) => ({ eventId: id, categoryId })) });
      if (tags.length) await tx.eventTag.createMany({ data: tags.map((tagId) => ({ eventId: id, tagId })) });
      return id;
    });
  const id = needsSlug
    ? await writeWithUniqueSlug(ctx.prisma, 'EVENT', input.slug || input.title!, insert)
    : await retryOnWriteConflict(() => inTransaction(ctx.prisma, (tx) => insert(tx, null)));
  if (series) await materializeSeries(ctx, id);
  // The new event's terms are those it was just linked to: no read back.
  publishChange(ctx, { kind: 'EVENT', id, action: 'CREATED' }, ...termChanges(links.categories ?? [], links.tags ?? []));
  return id;
});

/**
 * Partial update. On an occurrence of a recurring series, scope THIS (the default, and
 * every REST write) edits that occurrence alone and makes it an override; ALL and
 * THIS_AND_FOLLOWING are handled by `updateSeries` (src/services/recurrence.ts).
 */
export async function updateEvent(ctx: Context, address: PostAddress, input: EventInput, scope: RecurrenceScope = 'THIS'): Promise<number> {
  ctx = await prefetchImages(ctx, imagesOf(input));
  input = await filterHtmlFields(ctx.viewer, input, HTML_FIELDS);
  if (scope !== 'THIS' || input.recurrence) return updateSeries(ctx, address, input, scope, writeEvent);
  return retryOnVanishedLink(() => writeEventRow(ctx, address, input, true), EVENT_LINKS);
}

/** `updateEvent`'s write of one event row, run again when a record it links vanished meanwhile (retry.ts). */
function writeEvent(ctx: Context, address: PostAddress, input: EventInput): Promise<number> {
  return retryOnVanishedLink(() => writeEventRow(ctx, address, input), EVENT_LINKS);
}

/**
 * With `override` (a scope-THIS write: every REST write too), an occurrence keeps its own time and
 * fields from now on: marked in the same transaction, with the dates the update returned.
 */
const writeEventRow = recorded(async (ctx: Context, address: PostAddress, input: EventInput, override = false): Promise<number> => {
  // The row and its terms in one statement, which also answers locatePost's question (one round trip
  // less per update than locating, then reading); locatePost tells why when there is none.
  const include = { categories: { select: { categoryId: true } }, tags: { select: { tagId: true } } } as const;
  const where = lookupWhere(address);
  const found =
    (where && (await ctx.prisma.event.findUnique({ where, include }))) ??
    (await ctx.prisma.event.findUniqueOrThrow({ where: { id: (await locatePost(ctx, 'EVENT', address)).id }, include }));
  const { categories: categoriesBefore, tags: tagsBefore, ...current } = found;
  const row = current;
  validateInput(input, false);
  const viewer = requireEditable(ctx, row);
  const termsBefore = termChanges(
    categoriesBefore.map((c) => c.categoryId),
    tagsBefore.map((t) => t.tagId),
  );
  const links: Links = {};
  const data: Prisma.EventUncheckedUpdateInput = { ...scalarData(input), ...(await relationData(ctx, input, links)) };
  if (input.authorId !== undefined && input.authorId !== null) data.authorId = await resolveAuthor(ctx, input.authorId, current.authorId);

  const timezone = timezoneOf(input, current.timezone);
  const allDay = input.allDay ?? current.allDay;
  if (input.startDate || input.endDate || input.timezone || (input.allDay !== undefined && input.allDay !== null)) {
    Object.assign(
      data,
      eventDates(ctx, input.startDate || dateToWallClock(current.startLocal), input.endDate || dateToWallClock(current.endLocal), allDay, timezone),
    );
  }

  const requested = forcedStatus(viewer, (input.status ?? undefined) as Status | undefined, false);
  if (requested || input.date != null || input.dateUtc != null) {
    const published = await resolvePublicationDate(ctx, {
      date: input.date,
      dateUtc: input.dateUtc,
      timezone,
      status: requested ?? (current.status as Status),
      current: current.dateUtc,
    });
    Object.assign(data, published);
    if (current.status === 'trash' && published.status !== 'trash') {
      data.trashedFromStatus = null;
      if (current.slug) data.slug = untrashedSlug(current.slug);
    }
  }
  const now = stamp(ctx);
  Object.assign(data, { modifiedUtc: now.utc, modifiedLocal: now.local });
  const status = (data.status ?? current.status) as Status;
  const wantsSlug = input.slug || (!current.slug && status !== 'draft' && status !== 'pending' ? input.title || current.title : null);
  const movesCounts = links.categories !== undefined || links.tags !== undefined || data.status !== undefined;
  const write = async (db: TransactionClient, slug?: string) => {
    if (movesCounts) await lockCountedRows(db, row.id, links);
    return db.event.update({
      where: { id: row.id },
      data: { ...data, ...(slug ? { slug } : {}) },
      select: { startLocal: true, endLocal: true, startUtc: true, endUtc: true },
    });
  };
  const dates =
    wantsSlug && slugify(wantsSlug) !== current.slug
      ? await writeWithUniqueSlug(ctx.prisma, 'EVENT', wantsSlug, write, { exceptId: row.id })
      : await retryOnWriteConflict(() => (movesCounts ? inTransaction(ctx.prisma, (tx) => write(tx)) : write(ctx.prisma)));
  if (override) await ctx.prisma.eventOccurrence.updateMany({ where: { eventId: row.id }, data: { ...dates, overridden: true } });
  // The terms after the write: those it set, the others as they were (no read back).
  const termsAfter = termChanges(links.categories ?? categoriesBefore.map((c) => c.categoryId), links.tags ?? tagsBefore.map((t) => t.tagId));
  publishChange(ctx, { kind: 'EVENT', id: row.id, action: 'UPDATED', before: row }, ...termsBefore, ...termsAfter);
  return row.id;
});

/**
 * Takes the row locks a write that moves term counts will need, in the order the count triggers
 * take theirs (prisma/migrations/20261121170122_term_published_counts: the event row, then
 * categories, then tags, each ascending): the terms the event links now and those it is about to
 * link. A write replacing links deletes the old ones before inserting the new ones, so without this
 * two writers swapping terms took the same rows in opposite orders; PostgreSQL aborted one of them
 * (a deadlock, found only after `deadlock_timeout`), and eight concurrent swaps could use up the
 * retries and answer 500.
 */
async function lockCountedRows(tx: TransactionClient, eventId: number, links: Links): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM "Event" WHERE "id" = ${eventId} FOR UPDATE`;
  await tx.$executeRaw`SELECT 1 FROM "Category" WHERE "id" = ANY(${links.categories ?? []}::int[])
    OR "id" IN (SELECT "categoryId" FROM "EventCategory" WHERE "eventId" = ${eventId}) ORDER BY "id" FOR UPDATE`;
  await tx.$executeRaw`SELECT 1 FROM "Tag" WHERE "id" = ANY(${links.tags ?? []}::int[])
    OR "id" IN (SELECT "tagId" FROM "EventTag" WHERE "eventId" = ${eventId}) ORDER BY "id" FOR UPDATE`;
}

/** Moves an event to the trash (contract §7.9); a trashed event answers Gone. */
export const trashEvent = recorded(async (ctx: Context, address: PostAddress): Promise<number> => {
  const row = await locatePost(ctx, 'EVENT', address);
  requireTrashable(ctx, row, 'event');
  const now = stamp(ctx);
  await writeTrashed(ctx, 'EVENT', row, now, (db, data) => db.event.update({ where: { id: row.id }, data }));
  // A series takes its occurrences along.
  const members: Change[] = [];
  await forEachSeriesMember(ctx, row.id, async (id) => {
    const member = await locatePost(ctx, 'EVENT', { id });
    if (member.status === 'trash') return;
    await writeTrashed(ctx, 'EVENT', member, now, (db, data) => db.event.update({ where: { id }, data }));
    members.push({ kind: 'EVENT', id, action: 'DELETED', before: member });
  });
  publishChange(ctx, { kind: 'EVENT', id: row.id, action: 'DELETED', before: row }, ...members, ...(await eventTermChanges(ctx, row.id)));
  return row.id;
});

export const restoreEvent = recorded(async (ctx: Context, address: PostAddress): Promise<number> => {
  const row = await locatePost(ctx, 'EVENT', address);
  requireEditable(ctx, row);
  if (row.status !== 'trash') throw new ValidationError('The event is not in the trash.', 'id', 'NOT_TRASHED');
  const current = await ctx.prisma.event.findUniqueOrThrow({ where: { id: row.id }, select: { trashedFromStatus: true } });
  const restore = (db: TransactionClient, slug: string | null) =>
    db.event.update({ where: { id: row.id }, data: { status: current.trashedFromStatus ?? 'draft', trashedFromStatus: null, slug } });
  const base = row.slug ? untrashedSlug(row.slug) : undefined;
  if (base) await writeWithUniqueSlug(ctx.prisma, 'EVENT', base, restore, { exceptId: row.id });
  else await retryOnWriteConflict(() => restore(ctx.prisma, null));
  // A series brings its trashed occurrences back.
  await forEachSeriesMember(ctx, row.id, async (id) => {
    if ((await locatePost(ctx, 'EVENT', { id })).status === 'trash') await restoreEvent(ctx, { id });
  });
  publishChange(ctx, { kind: 'EVENT', id: row.id, action: 'RESTORED', before: row }, ...(await eventTermChanges(ctx, row.id)));
  return row.id;
});

export const purgeEvent = recorded(async (ctx: Context, address: PostAddress): Promise<number> => {
  const row = await locatePost(ctx, 'EVENT', address);
  requireEditable(ctx, row);
  if (row.status !== 'trash') throw new ForbiddenError('Move the event to the trash before deleting it permanently.', 'NOT_TRASHED');
  const terms = await eventTermChanges(ctx, row.id);
  // A series' occurrences go with it.
  const members: Change[] = [];
  await forEachSeriesMember(ctx, row.id, async (id) => members.push({ kind: 'EVENT', id, action: 'DELETED', before: await locatePost(ctx, 'EVENT', { id }) }));
  await retryOnWriteConflict(() => ctx.prisma.post.deleteMany({ where: { id: { in: [row.id, ...members.map((m) => m.id)] } } }));
  publishChange(ctx, { kind: 'EVENT', id: row.id, action: 'DELETED', before: row }, ...members, ...terms);
  return row.id;
});

const ascending = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
