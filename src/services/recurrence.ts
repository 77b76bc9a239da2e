/**
 * Recurring series: storing a series' rule and materializing its occurrences.
 *
 * Model. The series is an Event row carrying the rules (`recurrenceRules`, `recurrenceStart` =
 * DTSTART, RDATE/EXDATE lists) and is also its own first occurrence. Every further occurrence is an
 * Event row of its own, as the plugin's Pro edition does: its own post ID (the shared post space,
 * `insertPost`'s allocator), a copy of the series' fields and links, its own dates, `parentId` = the
 * series. So every list filter, date window, total and `/events/{id}` work on occurrences without
 * a change to the list code, and lists stay the same index scans. An `EventOccurrence` row keys each
 * occurrence (the series' own included) in its series by its RECURRENCE-ID and says whether it was
 * edited on its own (`overridden`: regeneration keeps its time and fields).
 *
 * Horizon. Occurrences are materialized up to `recurrenceHorizonDays` (CAL_RECURRENCE_HORIZON_DAYS,
 * default 730) after now (or after the series' start when it starts later); `materializedUntil`
 * records how far. Writes re-materialize the series; `extendHorizons` (run periodically by the
 * server) tops up series whose horizon falls more than a day behind. A finite series materialized
 * to its end gets `materializedUntil` = 9999-12-31 and is never looked at again. A series is bounded,
 * never refused, for its size: at most MAX_OCCURRENCES_PER_SERIES from now on (a denser series'
 * horizon ends at the last one) and as many before now (`materializedFrom`: an open-ended daily rule
 * that began years ago keeps its recent past, not all of it).
 */
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Context } from './context.ts';
import type { EventInput, RecurrenceInput } from './event-input.ts';
import { ValidationError } from '../domain/errors.ts';
import { expandSeries, materializationStart, parseSeriesDate, parseSeriesRule, splitRules, type SeriesSet } from '../domain/recurrence.ts';
import { dateToWallClock, localToUtc, utcToLocal, wallClockToDate } from '../domain/wall-clock.ts';
import { requireEditable } from './authz.ts';
import { publishChange, type Change } from './changes.ts';
import { recorded } from './change-log.ts';
import { locatePost } from './posts.ts';
import { retryOnWriteConflict } from './retry.ts';

const DEFAULT_HORIZON_DAYS = 730;
const DAY = 86_400_000;
const FOREVER = wallClockToDate('9999-12-31 00:00:00');

/** A series definition checked against its start: what `createEvent`/`updateEvent` store. */
export interface PreparedSeries extends SeriesSet {
  /** Where its materialized occurrences begin (DTSTART unless it began long ago). */
  from: Date;
  /** The first occurrence (the series row's own start). */
  first: Date;
}

/** How many days ahead series are materialized (CAL_RECURRENCE_HORIZON_DAYS). */
export const horizonDays = (ctx: Context) => ctx.settings.recurrenceHorizonDays ?? DEFAULT_HORIZON_DAYS;

/** The local wall clock up to which a series starting at `anchor` is materialized now. */
function horizonEnd(ctx: Context, anchor: Date, timezone: string): Date {
  return new Date(Math.max(nowLocal(ctx, timezone).getTime(), anchor.getTime()) + horizonDays(ctx) * DAY);
}

const nowLocal = (ctx: Context, timezone: string) => wallClockToDate(utcToLocal(ctx.now, timezone));

const toUtc = (local: Date, timezone: string) => wallClockToDate(localToUtc(dateToWallClock(local), timezone));

/** The rule texts of a recurrence input: `rule` and `rules`, in that order, without repeats. */
export const inputRules = (input: RecurrenceInput) => [...new Set([...(input.rule ? [input.rule] : []), ...(input.rules ?? [])])];

/** The recurrence set a stored series row describes. */
function storedSet(series: { recurrenceRules: string[]; recurrenceStart: Date | null; recurrenceRdates: Date[]; recurrenceExdates: Date[]; timezone: string }, exdates = series.recurrenceExdates): SeriesSet {
  return {
    rules: series.recurrenceRules.map((r) => parseSeriesRule(r, series.timezone)),
    anchor: series.recurrenceStart!,
    rdates: series.recurrenceRdates,
    exdates,
  };
}

/** The window a series is materialized in now: [from (null: its first date), horizon], at most the cap from now on. */
function windowOf(ctx: Context, from: Date | null, anchor: Date, timezone: string) {
  return { from, until: horizonEnd(ctx, anchor, timezone), capFrom: nowLocal(ctx, timezone) };
}

/**
 * Checks a recurrence against the event's start (event-local floating Date) and zone: the rules,
 * the dates, and that it yields at least one occurrence.
 */
export function prepareSeries(ctx: Context, input: RecurrenceInput, anchor: Date, timezone: string): PreparedSeries {
  const texts = inputRules(input);
  if (!texts.length && !input.rdates?.length) throw new ValidationError('The recurrence needs a rule or extra dates (RDATE).', 'recurrence.rule', 'EMPTY');
  const rules = texts.map((text) => parseSeriesRule(text, timezone));
  const time = dateToWallClock(anchor).slice(11);
  const dates = (list: string[] | null | undefined, field: string) => (list ?? []).map((d) => parseSeriesDate(d, time, field));
  const set = { rules, anchor, rdates: dates(input.rdates, 'recurrence.rdates'), exdates: dates(input.exdates, 'recurrence.exdates') };
  const from = materializationStart(set, nowLocal(ctx, timezone));
  const { starts } = expandSeries(set, windowOf(ctx, from, anchor, timezone));
  const [first] = starts;
  if (!first) throw new ValidationError('The recurrence yields no occurrence.', 'recurrence.rule', 'EMPTY_SERIES');
  return { ...set, from, first };
}

/** The series columns of a prepared series, and the row's own dates moved to its first occurrence. */
export function seriesData(series: PreparedSeries, dates: { startLocal: Date; endLocal: Date; timezone: string }) {
  const duration = dates.endLocal.getTime() - dates.startLocal.getTime();
  const startLocal = series.first;
  const endLocal = new Date(startLocal.getTime() + duration);
  return {
    ...seriesColumns(series),
    startLocal,
    endLocal,
    startUtc: toUtc(startLocal, dates.timezone),
    endUtc: toUtc(endLocal, dates.timezone),
  };
}

/** The stored form of a prepared series' rules and dates. */
const seriesColumns = (series: PreparedSeries) => ({
  recurrenceRules: series.rules.map((r) => r.rule),
  recurrenceStart: series.anchor,
  recurrenceRdates: [...series.rdates],
  recurrenceExdates: [...series.exdates],
  materializedFrom: series.from,
});

/** Columns an occurrence copies from its series (everything but identity, dates and the rule). */
const NOT_COPIED = new Set([
  'id',
  'slug',
  'parentId',
  'startLocal',
  'endLocal',
  'startUtc',
  'endUtc',
  'recurrenceRules',
  'recurrenceStart',
  'recurrenceRdates',
  'recurrenceExdates',
  'materializedUntil',
  'materializedFrom',
  'trashedFromStatus',
]);

type SeriesRow = Prisma.EventGetPayload<{
  include: { venues: true; organizers: true; categories: true; tags: true };
}>;

/**
 * Brings a series' occurrences in line with its rule up to the horizon: occurrences the rule no
 * longer gives are deleted (overridden ones too: their RECURRENCE-ID is gone), missing ones are
 * created from the series row, non-overridden ones keep their RECURRENCE-ID and get the series'
 * duration. Returns the number of occurrences created.
 */
export const materializeSeries = recorded(async (ctx: Context, seriesId: number): Promise<number> => {
  const series: SeriesRow | null = await ctx.prisma.event.findUnique({
    where: { id: seriesId },
    include: { venues: true, organizers: true, categories: true, tags: true },
  });
  if (!series?.recurrenceStart) return 0;
  // A series bounded by the cap is materialized up to its last occurrence kept (`until`).
  const { starts, more, until } = expandSeries(storedSet(series), windowOf(ctx, series.materializedFrom, series.recurrenceStart, series.timezone));
  const duration = series.endLocal.getTime() - series.startLocal.getTime();
  const existing = await ctx.prisma.eventOccurrence.findMany({
    where: { seriesId },
    include: { event: { select: { startLocal: true, endLocal: true, status: true, authorId: true } } },
  });
  // Subscriptions hear of every occurrence created, moved or deleted here (src/services/changes.ts).
  const changes: Change[] = [];
  const wanted = new Map(starts.map((d) => [d.getTime(), d]));
  const byKey = new Map(existing.map((o) => [o.recurrenceLocal.getTime(), o]));

  // The series row is the first occurrence: it follows the first start the rule gives that no
  // other occurrence holds as an override (an edited first occurrence is an event of its own).
  const own = existing.find((o) => o.eventId === seriesId);
  const first = starts.find((d) => {
    const holder = byKey.get(d.getTime());
    return !holder || holder.eventId === seriesId || !holder.overridden;
  });
  if (first && (!own || own.recurrenceLocal.getTime() !== first.getTime())) {
    const holder = byKey.get(first.getTime());
    if (holder && holder.eventId !== seriesId) {
      await ctx.prisma.post.delete({ where: { id: holder.eventId } });
      byKey.delete(first.getTime());
      changes.push({ kind: 'EVENT', id: holder.eventId, action: 'DELETED', before: holder.event });
    }
    if (own) byKey.delete(own.recurrenceLocal.getTime());
    const dates = occurrenceDates(first, own?.overridden ? series.endLocal.getTime() - series.startLocal.getTime() : duration, series.timezone);
    await ctx.prisma.event.update({ where: { id: seriesId }, data: dates });
    const row = { ...dates, recurrenceLocal: first, overridden: false };
    await ctx.prisma.eventOccurrence.upsert({ where: { eventId: seriesId }, create: { eventId: seriesId, seriesId, ...row }, update: row });
    byKey.set(first.getTime(), { eventId: seriesId, seriesId, ...row, event: { ...dates, status: series.status, authorId: series.authorId } });
    // A new series is announced CREATED by its writer; an existing one moved here.
    if (own) changes.push({ kind: 'EVENT', id: seriesId, action: 'UPDATED', before: series });
  }

  // Occurrences not edited on their own follow the series: start = RECURRENCE-ID, the series' duration.
  for (const o of byKey.values()) {
    if (o.overridden || !wanted.has(o.recurrenceLocal.getTime())) continue;
    const dates = occurrenceDates(o.recurrenceLocal, duration, series.timezone);
    if (o.event.startLocal.getTime() === dates.startLocal.getTime() && o.event.endLocal.getTime() === dates.endLocal.getTime()) continue;
    await ctx.prisma.event.update({ where: { id: o.eventId }, data: dates });
    await ctx.prisma.eventOccurrence.update({ where: { eventId: o.eventId }, data: dates });
    changes.push({ kind: 'EVENT', id: o.eventId, action: 'UPDATED', before: o.event });
  }

  // An override past the horizon (made by occurrenceAt) stays: the horizon reaches it later.
  const gone = [...byKey.values()].filter((o) => o.eventId !== seriesId && !wanted.has(o.recurrenceLocal.getTime()) && !(o.overridden && o.recurrenceLocal > until));
  if (gone.length) await ctx.prisma.post.deleteMany({ where: { id: { in: gone.map((o) => o.eventId) } } });
  for (const o of gone) changes.push({ kind: 'EVENT', id: o.eventId, action: 'DELETED', before: o.event });

  const missing = starts.filter((d) => !byKey.has(d.getTime()));
  const created = missing.length ? await createOccurrences(ctx, series, missing, duration) : [];
  for (const id of created) changes.push({ kind: 'EVENT', id, action: 'CREATED' });
  await ctx.prisma.event.update({ where: { id: seriesId }, data: { materializedUntil: more ? until : FOREVER } });
  publishChange(ctx, ...changes);
  return missing.length;
});

function occurrenceDates(start: Date, duration: number, timezone: string) {
  const end = new Date(start.getTime() + duration);
  return { startLocal: start, endLocal: end, startUtc: toUtc(start, timezone), endUtc: toUtc(end, timezone) };
}

const ymd = (d: Date) => dateToWallClock(d).slice(0, 10);

/** Creates the occurrences of `starts` from the series row; returns their IDs. */
async function createOccurrences(ctx: Context, series: SeriesRow, starts: Date[], duration: number): Promise<number[]> {
  const posts = await ctx.prisma.post.createManyAndReturn({ data: starts.map(() => ({ type: 'EVENT' as const })), select: { id: true } });
  const ids = posts.map((p) => p.id);
  try {
    const base = Object.fromEntries(Object.entries(series).filter(([k, v]) => !NOT_COPIED.has(k) && !Array.isArray(v)));
    // Slugs: the series' slug and the date (and time, when a day has several occurrences).
    const perDay = new Map<string, number>();
    for (const d of starts) perDay.set(ymd(d), (perDay.get(ymd(d)) ?? 0) + 1);
    const slugs = starts.map((d) =>
      series.slug ? `${series.slug.slice(0, 170)}-${ymd(d)}${perDay.get(ymd(d))! > 1 ? `-${dateToWallClock(d).slice(11, 16).replace(':', '')}` : ''}` : null,
    );
    const taken = new Set(
      (await ctx.prisma.event.findMany({ where: { slug: { in: slugs.filter((s): s is string => !!s) } }, select: { slug: true } })).map((r) => r.slug),
    );
    const rows = starts.map((start, i) => {
      const id = ids[i];
      const slug = slugs[i] ?? null;
      if (id === undefined) throw new Error(`createOccurrences: ${starts.length} posts asked, ${ids.length} created`);
      return {
        ...(base as Omit<Prisma.EventCreateManyInput, 'id' | 'startLocal' | 'endLocal' | 'startUtc' | 'endUtc'>),
        cost: series.cost,
        id,
        slug: slug && taken.has(slug) ? `${slug}-${id}` : slug,
        parentId: series.id,
        ...occurrenceDates(start, duration, series.timezone),
      };
    });
    await ctx.prisma.event.createMany({ data: rows });
    await ctx.prisma.eventOccurrence.createMany({
      data: rows.map((r) => ({
        eventId: r.id,
        seriesId: series.id,
        recurrenceLocal: r.startLocal, // the start it was made from (occurrenceDates)
        startLocal: r.startLocal,
        endLocal: r.endLocal,
        startUtc: r.startUtc,
        endUtc: r.endUtc,
      })),
    });
    const links = <T>(make: (eventId: number) => T[]) => ids.flatMap(make);
    if (series.venues.length) {
      await ctx.prisma.eventVenue.createMany({ data: links((eventId) => series.venues.map((v) => ({ eventId, venueId: v.venueId, position: v.position }))) });
    }
    if (series.organizers.length) {
      await ctx.prisma.eventOrganizer.createMany({
        data: links((eventId) => series.organizers.map((o) => ({ eventId, organizerId: o.organizerId, position: o.position }))),
      });
    }
    if (series.categories.length) {
      await ctx.prisma.eventCategory.createMany({ data: links((eventId) => series.categories.map((c) => ({ eventId, categoryId: c.categoryId }))) });
    }
    if (series.tags.length) {
      await ctx.prisma.eventTag.createMany({ data: links((eventId) => series.tags.map((t) => ({ eventId, tagId: t.tagId }))) });
    }
  } catch (error) {
    await ctx.prisma.post.deleteMany({ where: { id: { in: ids } } }).catch(() => {});
    throw error;
  }
  return ids;
}

/** The occurrence row of an event the caller may edit, with its series; ValidationError when it is none. */
async function editableOccurrence(ctx: Context, id: number) {
  const row = await locatePost(ctx, 'EVENT', { id });
  requireEditable(ctx, row);
  const occurrence = await ctx.prisma.eventOccurrence.findUnique({ where: { eventId: id }, include: { series: true } });
  if (!occurrence) throw new ValidationError(`The event ${id} is not an occurrence of a series.`, 'id', 'NOT_AN_OCCURRENCE');
  requireEditable(ctx, occurrence.series);
  return occurrence;
}

/**
 * Cancels one occurrence: its RECURRENCE-ID becomes an EXDATE and it is deleted (its ID is gone).
 * Cancelling the series' own first occurrence moves the series row to the next one (whose own row
 * is then merged into it). Cancelling the last one left is refused: delete the series instead.
 * Returns the series ID.
 */
export const cancelOccurrence = recorded(async (ctx: Context, id: number): Promise<number> => {
  const { series, recurrenceLocal } = await editableOccurrence(ctx, id);
  const exdates = [...series.recurrenceExdates, recurrenceLocal];
  const left = expandSeries(storedSet(series, exdates), windowOf(ctx, series.materializedFrom, series.recurrenceStart!, series.timezone));
  if (!left.starts.length && !left.more) {
    throw new ValidationError('This is the last occurrence of the series: delete the series instead.', 'id', 'EMPTY_SERIES');
  }
  await retryOnWriteConflict(() => ctx.prisma.event.update({ where: { id: series.id }, data: { recurrenceExdates: exdates } }));
  await materializeSeries(ctx, series.id);
  publishChange(ctx, { kind: 'EVENT', id: series.id, action: 'UPDATED', before: series });
  return series.id;
});

/**
 * The occurrence of a series at the RECURRENCE-ID `slot` (event-local wall clock); one the set
 * gives past the materialized horizon (an imported override far ahead) is made now. Null when the
 * set does not give it, or gives it before the occurrences the series keeps (`materializedFrom`).
 */
export const occurrenceAt = recorded(async (ctx: Context, seriesId: number, slot: Date): Promise<number | null> => {
  const found = await ctx.prisma.eventOccurrence.findFirst({ where: { seriesId, recurrenceLocal: slot }, select: { eventId: true } });
  if (found) return found.eventId;
  const series: SeriesRow | null = await ctx.prisma.event.findUnique({
    where: { id: seriesId },
    include: { venues: true, organizers: true, categories: true, tags: true },
  });
  if (!series?.recurrenceStart || !series.materializedUntil || slot <= series.materializedUntil) return null;
  requireEditable(ctx, series);
  if (!expandSeries(storedSet(series), { from: slot, until: slot }).starts.length) return null;
  const [id] = await createOccurrences(ctx, series, [slot], series.endLocal.getTime() - series.startLocal.getTime());
  publishChange(ctx, { kind: 'EVENT', id: id!, action: 'CREATED' });
  return id!;
});

/**
 * The series row holds its first occurrence; to edit that occurrence on its own (an imported
 * override of DTSTART), it becomes an event of its own — a copy of the series row, marked as an
 * override — and the series row, which keeps the series' own fields for the occurrences still to
 * be made, moves to the next occurrence. Returns the event now holding the first occurrence: the
 * series row itself when it is the only occurrence (it then takes the edit, as before).
 */
export const detachFirstOccurrence = recorded(async (ctx: Context, seriesId: number): Promise<number> => {
  const series: SeriesRow = await ctx.prisma.event.findUniqueOrThrow({
    where: { id: seriesId },
    include: { venues: true, organizers: true, categories: true, tags: true },
  });
  requireEditable(ctx, series);
  const own = await ctx.prisma.eventOccurrence.findUnique({ where: { eventId: seriesId } });
  if (!own || !series.recurrenceStart) return seriesId;
  const held = await ctx.prisma.eventOccurrence.findMany({ where: { seriesId, overridden: true }, select: { recurrenceLocal: true } });
  const taken = new Set(held.map((o) => o.recurrenceLocal.getTime()));
  const { starts } = expandSeries(storedSet(series), windowOf(ctx, series.materializedFrom, series.recurrenceStart, series.timezone));
  if (!starts.some((d) => d.getTime() !== own.recurrenceLocal.getTime() && !taken.has(d.getTime()))) return seriesId;
  await ctx.prisma.eventOccurrence.delete({ where: { eventId: seriesId } });
  const [id] = await createOccurrences(ctx, series, [own.recurrenceLocal], series.endLocal.getTime() - series.startLocal.getTime());
  await ctx.prisma.eventOccurrence.update({ where: { eventId: id! }, data: { overridden: true } });
  await materializeSeries(ctx, seriesId);
  publishChange(ctx, { kind: 'EVENT', id: id!, action: 'CREATED' });
  return id!;
});

export type RecurrenceScope = 'THIS' | 'THIS_AND_FOLLOWING' | 'ALL';
/** `updateEvent`'s plain write of one event row (passed in: events.ts imports this module). */
type WriteEvent = (ctx: Context, address: { id: number }, input: EventInput) => Promise<number>;

const wallList = (dates: Date[]) => dates.map(dateToWallClock);
const shift = (dates: Date[], delta: number) => dates.map((d) => new Date(d.getTime() + delta));

/**
 * Updates with scope ALL or THIS_AND_FOLLOWING, or gives a single event a recurrence. ALL: the
 * series row takes the fields and dates, the rule may change, every other occurrence takes the
 * fields given (overrides too) and the occurrences are re-materialized (not-overridden ones follow a
 * new time). THIS_AND_FOLLOWING on an occurrence other than the first splits the series there: the
 * old series ends before it (UNTIL), the occurrence becomes a new series holding it and the
 * following ones (IDs kept), and the update applies to that one as ALL.
 */
export const updateSeries = recorded(async (ctx: Context, address: { id?: number | null; slug?: string | null }, input: EventInput, scope: RecurrenceScope, write: WriteEvent) => {
  const row = await locatePost(ctx, 'EVENT', address);
  requireEditable(ctx, row);
  const occurrence = await ctx.prisma.eventOccurrence.findUnique({ where: { eventId: row.id }, include: { series: true } });
  if (!occurrence) {
    if (scope === 'THIS_AND_FOLLOWING') throw new ValidationError(`The event ${row.id} is not an occurrence of a series.`, 'scope', 'NOT_AN_OCCURRENCE');
    if (!input.recurrence) return write(ctx, { id: row.id }, input);
    // A single event becomes a series: its start is DTSTART.
    const { recurrence, ...fields } = input;
    const current = await ctx.prisma.event.findUniqueOrThrow({ where: { id: row.id }, select: { startLocal: true, endLocal: true, timezone: true } });
    prepareSeries(ctx, recurrence, current.startLocal, current.timezone);
    await write(ctx, { id: row.id }, fields);
    const after = await ctx.prisma.event.findUniqueOrThrow({ where: { id: row.id }, select: { startLocal: true, endLocal: true, timezone: true } });
    const series = prepareSeries(ctx, recurrence, after.startLocal, after.timezone);
    await ctx.prisma.event.update({ where: { id: row.id }, data: { ...seriesData(series, after), parentId: null } });
    await materializeSeries(ctx, row.id);
    return row.id;
  }
  if (scope === 'THIS') throw new ValidationError('A recurrence changes with scope ALL or THIS_AND_FOLLOWING.', 'scope', 'SCOPE_REQUIRED');
  requireEditable(ctx, occurrence.series);
  if (scope === 'THIS_AND_FOLLOWING' && occurrence.eventId !== occurrence.seriesId) {
    await splitSeries(ctx, occurrence.series, occurrence.eventId, occurrence.recurrenceLocal);
    await updateAll(ctx, occurrence.eventId, input, write);
    return row.id;
  }
  await updateAll(ctx, occurrence.seriesId, input, write);
  return row.id;
});

async function updateAll(ctx: Context, seriesId: number, input: EventInput, write: WriteEvent) {
  const { recurrence, startDate, endDate, slug, ...fields } = input;
  const before = await ctx.prisma.event.findUniqueOrThrow({ where: { id: seriesId } });
  await write(ctx, { id: seriesId }, { ...fields, slug, startDate, endDate });
  const after = await ctx.prisma.event.findUniqueOrThrow({ where: { id: seriesId } });
  // A new start time moves the whole series: DTSTART, EXDATE/RDATE and every RECURRENCE-ID shift with it.
  const delta = after.startLocal.getTime() - before.startLocal.getTime();
  const anchor = new Date(before.recurrenceStart!.getTime() + delta);
  const series = prepareSeries(
    ctx,
    recurrence ?? {
      rules: before.recurrenceRules,
      exdates: wallList(shift(before.recurrenceExdates, delta)),
      rdates: wallList(shift(before.recurrenceRdates, delta)),
    },
    anchor,
    after.timezone,
  );
  if (delta) {
    // Two steps: a unique (seriesId, recurrenceLocal) key must not collide half-way.
    await ctx.prisma.$executeRaw`UPDATE "EventOccurrence" SET "recurrenceLocal" = "recurrenceLocal" + interval '1000 years' WHERE "seriesId" = ${seriesId}`;
    await ctx.prisma.$executeRaw`UPDATE "EventOccurrence" SET "recurrenceLocal" = "recurrenceLocal" - interval '1000 years' + make_interval(secs => ${delta / 1000}) WHERE "seriesId" = ${seriesId}`;
  }
  await ctx.prisma.event.update({
    where: { id: seriesId },
    data: seriesColumns(series),
  });
  await ctx.prisma.eventOccurrence.update({ where: { eventId: seriesId }, data: { overridden: false } });
  const copied = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (Object.keys(copied).length) {
    const others = await ctx.prisma.eventOccurrence.findMany({ where: { seriesId, NOT: { eventId: seriesId } }, select: { eventId: true } });
    for (const o of others) await write(ctx, { id: o.eventId }, copied);
  }
  await materializeSeries(ctx, seriesId);
}

/** Splits a series before the occurrence `id` (RECURRENCE-ID `cut`): that occurrence heads a new series of the following ones. */
async function splitSeries(ctx: Context, series: Prisma.EventGetPayload<object>, id: number, cut: Date) {
  const set = storedSet(series);
  const rules = splitRules(set.rules, set.anchor, cut, series.timezone);
  // A rule whose phase the cut does not keep: its occurrences from the cut on, as dates.
  const { starts } = rules.after ? { starts: [] } : expandSeries({ ...set, exdates: [] }, { from: cut, until: horizonEnd(ctx, cut, series.timezone) });
  const after = (dates: Date[]) => dates.filter((d) => d >= cut);
  const beforeList = (dates: Date[]) => dates.filter((d) => d < cut);
  const moved = await ctx.prisma.eventOccurrence.findMany({ where: { seriesId: series.id, recurrenceLocal: { gte: cut } }, select: { eventId: true } });
  const movedIds = moved.map((o) => o.eventId);
  await ctx.prisma.eventOccurrence.updateMany({ where: { eventId: { in: movedIds } }, data: { seriesId: id } });
  await ctx.prisma.event.updateMany({ where: { id: { in: movedIds.filter((m) => m !== id) } }, data: { parentId: id } });
  await ctx.prisma.event.update({
    where: { id },
    data: {
      parentId: null,
      recurrenceRules: rules.after ?? [],
      recurrenceStart: cut,
      materializedFrom: null,
      recurrenceExdates: after(series.recurrenceExdates),
      recurrenceRdates: rules.after ? after(series.recurrenceRdates) : starts.filter((d) => d > cut),
    },
  });
  await ctx.prisma.event.update({
    where: { id: series.id },
    data: {
      recurrenceRules: rules.before,
      recurrenceExdates: beforeList(series.recurrenceExdates),
      recurrenceRdates: beforeList(series.recurrenceRdates),
    },
  });
  await materializeSeries(ctx, series.id);
}

/**
 * Trashing, restoring or purging a series (the series row) does the same to every other
 * occurrence, so no occurrence outlives its series; on an occurrence these act on it alone.
 */
export async function forEachSeriesMember(ctx: Context, id: number, act: (memberId: number) => Promise<unknown>): Promise<void> {
  const members = await ctx.prisma.eventOccurrence.findMany({ where: { seriesId: id, NOT: { eventId: id } }, select: { eventId: true } });
  for (const m of members) await act(m.eventId);
}

/**
 * The cheap periodic check: series whose materialized horizon is more than a day behind get
 * topped up (one indexed range scan on `materializedUntil` when nothing is due). Returns how many
 * series it extended.
 */
export async function extendHorizons(ctx: Context): Promise<number> {
  const due = new Date(ctx.now.getTime() + (horizonDays(ctx) - 1) * DAY);
  const series = await ctx.prisma.event.findMany({ where: { materializedUntil: { lt: due } }, select: { id: true } });
  for (const s of series) await materializeSeries(ctx, s.id);
  return series.length;
}

/**
 * Runs `extendHorizons` now and then every `everyMs` (hourly by default) without keeping the process
 * alive; `onExtended` follows a run that wrote occurrences (they publish no change of their own).
 */
export function startHorizonTimer(
  makeContext: () => Context,
  onError: (error: unknown) => void,
  everyMs = 3_600_000,
  onExtended: () => unknown = () => {},
): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    extendHorizons(makeContext())
      .then((extended) => extended > 0 && onExtended())
      .catch(onError)
      .finally(() => (running = false));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return () => clearInterval(timer);
}
