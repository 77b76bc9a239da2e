/**
 * `cal import --ics URL|FILE`: every VEVENT of an iCalendar feed (src/transfer/ics-source.ts)
 * becomes an event, a recurring one a series with its overrides, written through the event services
 * as the import's author (like any GraphQL write: statuses, slugs, terms, venue reuse, series rules).
 * The UID ↔ local event mapping is kept in `TransferMapping` (source = the feed and the UID), with a
 * digest of what the feed said: a second run of an unchanged feed writes nothing.
 */
import { createHash } from 'node:crypto';
import type { LinkedKind } from '../db/tables.ts';
import type { Context } from '../services/context.ts';
import { dateToWallClock, wallClockToDate } from '../domain/wall-clock.ts';
import type { EventInput } from '../services/event-input.ts';
import { createEvent, trashEvent, updateEvent } from '../services/events.ts';
import { createLinkedPost, reusableLinkedPost, type LinkedPostInput } from '../services/linked-posts.ts';
import { detachFirstOccurrence, horizonDays, occurrenceAt } from '../services/recurrence.ts';
import { emptySummary, KINDS, type Summary } from './import.ts';
import { feedKey, IcsFeedError, loadFeedText, parseFeed, type IcsEntry, type IcsFields, type IcsOrganizer, type IcsVenue } from './ics-source.ts';
import type { Progress } from './progress.ts';
import type { SourceOptions } from './source.ts';

export interface IcsImportOptions {
  /** URL (http, https, webcal) or file of the feed. */
  ics: string;
  /** Slug of a category every imported event gets. */
  category?: string;
  /** Login of the local user the events are written as (default: the first administrator). */
  author?: string;
  /** Basic credentials of the feed (a private Nextcloud calendar, …). */
  login?: string;
  password?: string;
  prune?: boolean;
  dryRun?: boolean;
  source?: Partial<SourceOptions>;
}

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** `source` of a UID's mapping row: the feed, `#`, the UID (long ones as their digest; the column holds 500). */
function mappingPrefix(location: string): string {
  const key = feedKey(location);
  return `${key.length > 280 ? `ics:sha256:${digest(key)}` : key}#`;
}
const uidKey = (uid: string) => (uid.length > 200 ? `sha256:${digest(uid)}` : uid);

export async function importFromIcs(ctx: Context, opts: IcsImportOptions, progress: Progress): Promise<Summary> {
  const started = Date.now();
  const summary = emptySummary();
  const events = summary.kinds.events;
  const fail = (uid: string | null, localId: number | null, error: unknown) => {
    events.failed++;
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    summary.failures.push({ kind: 'event', id: localId, reason: uid ? `UID ${uid}: ${reason}` : reason });
  };

  // The feed first: a feed that cannot be had or read stops the import before anything is written.
  const text = await loadFeedText(opts.ics, {
    ...opts.source,
    login: opts.login,
    password: opts.password,
    onRetry: (url, reason, ms) => progress.note(`retrying ${url} (${reason}) in ${Math.round(ms)} ms`),
  });
  const feed = parseFeed(text, { timezone: ctx.settings.timezone, until: new Date(ctx.now.getTime() + horizonDays(ctx) * 86_400_000) });
  summary.repairs = feed.repairs;
  // A feed of which nothing can be read stops here, before anything is written or pruned.
  if (!feed.entries.length && feed.failures.length) {
    const [first] = feed.failures;
    const n = feed.failures.length;
    throw new IcsFeedError(`no event could be read: ${n === 1 ? 'its VEVENT was' : `its ${n} VEVENTs were`} refused (${first!.uid ? `UID ${first!.uid}: ` : ''}${first!.reason})`);
  }

  const author = opts.author
    ? await ctx.prisma.user.findUnique({ where: { login: opts.author }, select: { id: true, login: true, role: true } })
    : await ctx.prisma.user.findFirst({ where: { role: 'ADMINISTRATOR' }, orderBy: { id: 'asc' }, select: { id: true, login: true, role: true } });
  if (!author) throw new Error(opts.author ? `no local user has the login "${opts.author}"` : 'no local administrator to own the imported events; create one first');
  summary.authors['*'] = author.login;
  // Every write is the author's own, with the author's role (as over GraphQL).
  const as: Context = { ...ctx, viewer: { id: author.id, login: author.login, role: author.role } };
  if (opts.category && !(await ctx.prisma.category.findUnique({ where: { slug: opts.category }, select: { id: true } }))) {
    throw new Error(`--category: no category has the slug "${opts.category}"`);
  }

  const seen = new Set<string>(feed.entries.map((e) => uidKey(e.uid)));
  for (const f of feed.failures) {
    if (f.uid) seen.add(uidKey(f.uid));
    fail(f.uid, null, f.reason);
  }

  const prefix = mappingPrefix(opts.ics);
  const rows = await ctx.prisma.transferMapping.findMany({ where: { source: { startsWith: prefix }, kind: 'event' } });
  const known = new Map(rows.map((r) => [r.source.slice(prefix.length), r]));
  const present = new Set(
    (await ctx.prisma.event.findMany({ where: { id: { in: rows.map((r) => r.localId) } }, select: { id: true } })).map((e) => e.id),
  );
  const categoriesBefore = await ctx.prisma.category.count();
  const remember = async (uid: string, localId: number, hash: string) => {
    const source = prefix + uidKey(uid);
    await ctx.prisma.transferMapping.upsert({
      where: { source_kind_sourceId: { source, kind: 'event', sourceId: 0 } },
      create: { source, kind: 'event', sourceId: 0, localId, hash },
      update: { localId, hash },
    });
  };

  // Venues and organizers: reused by name (as an event write reuses them), created once otherwise.
  const linkedIds = new Map<string, number>();
  const counted = new Set<number>();
  const linked = async (kind: LinkedKind, fields: LinkedPostInput & { name: string }): Promise<number> => {
    const key = `${kind}:${fields.name.toLowerCase()}`;
    const cached = linkedIds.get(key);
    if (cached) return cached;
    const counts = summary.kinds[kind === 'VENUE' ? 'venues' : 'organizers'];
    const reused = await reusableLinkedPost(as, kind, fields.name, null);
    const id = reused ? reused.id : await createLinkedPost(as, kind, fields);
    if (!counted.has(id)) counts[reused ? 'unchanged' : 'created']++;
    counted.add(id);
    linkedIds.set(key, id);
    return id;
  };

  const fieldsInput = (f: IcsFields): EventInput => ({
    title: f.title,
    // Empty clears: an override without DESCRIPTION has none (RFC 5545: it replaces the occurrence).
    description: f.description.trim() ? f.description : '',
    startDate: f.startDate,
    endDate: f.endDate,
    allDay: f.allDay,
    timezone: f.timezone,
    website: f.website,
    status: f.status,
  });
  const linksInput = async (l: { venue: IcsVenue | null; organizer: IcsOrganizer | null }): Promise<EventInput> => ({
    venues: l.venue ? [{ id: await linked('VENUE', { name: l.venue.name, address: l.venue.address || undefined, latitude: l.venue.latitude, longitude: l.venue.longitude }) }] : [],
    organizers: l.organizer ? [{ id: await linked('ORGANIZER', { name: l.organizer.name, email: l.organizer.email || undefined }) }] : [],
  });

  const write = async (entry: IcsEntry, localId: number | null): Promise<{ id: number; complete: boolean }> => {
    const input: EventInput = {
      ...fieldsInput(entry.fields),
      categories: [...entry.categories, ...(opts.category ? [opts.category] : [])],
      ...(await linksInput(entry)),
      recurrence: entry.recurrence,
    };
    let id: number;
    if (localId === null) {
      id = await createEvent(as, input);
    } else {
      const row = await as.prisma.event.findUniqueOrThrow({ where: { id: localId }, select: { startLocal: true, recurrenceStart: true } });
      if (row.recurrenceStart && entry.recurrence) {
        // A series row holds its first occurrence, which is not DTSTART when DTSTART is excluded: the
        // series moves by the change of DTSTART (updateSeries shifts its anchor by the row's move).
        const wall = (d: string) => wallClockToDate(d.length === 10 ? `${d} 00:00:00` : d).getTime();
        const delta = wall(entry.fields.startDate) - row.recurrenceStart.getTime();
        const length = wall(entry.fields.endDate) - wall(entry.fields.startDate);
        const at = (ms: number) => dateToWallClock(new Date(ms)).slice(0, entry.fields.allDay ? 10 : 19);
        input.startDate = at(row.startLocal.getTime() + delta);
        input.endDate = at(row.startLocal.getTime() + delta + length);
      }
      id = await updateEvent(as, { id: localId }, input, 'ALL');
    }
    let complete = true;
    if (entry.overrides.length) {
      const series = await as.prisma.event.findUniqueOrThrow({ where: { id }, select: { recurrenceStart: true, materializedFrom: true } });
      const time = series.recurrenceStart ? dateToWallClock(series.recurrenceStart).slice(11) : '00:00:00';
      for (const o of entry.overrides) {
        try {
          const slot = wallClockToDate(o.recurrenceId.length === 10 ? `${o.recurrenceId} ${time}` : o.recurrenceId);
          const occurrence = await occurrenceAt(as, id, slot);
          if (occurrence === null) {
            if (series.materializedFrom && slot < series.materializedFrom) {
              summary.repairs!.push({ uid: entry.uid, note: `the override of ${o.recurrenceId} is older than the occurrences the series keeps: skipped` });
              continue;
            }
            throw new Error(`RECURRENCE-ID ${o.recurrenceId} is no occurrence of the series`);
          }
          // The series row holds the first occurrence and the series' own fields: an edit of that
          // occurrence goes to an event of its own.
          const target = occurrence === id ? await detachFirstOccurrence(as, id) : occurrence;
          const { timezone: _zone, ...fields } = fieldsInput(o.fields);
          await updateEvent(as, { id: target }, { ...fields, ...(await linksInput(o)) }, 'THIS');
        } catch (error) {
          // The event stays; its next run tries again (its digest is not stored).
          complete = false;
          fail(entry.uid, id, error);
        }
      }
    }
    return { id, complete };
  };

  progress.start('events', feed.entries.length);
  for (const entry of feed.entries) {
    const key = uidKey(entry.uid);
    const mapped = known.get(key);
    const localId = mapped && present.has(mapped.localId) ? mapped.localId : null;
    const hash = digest({ entry, category: opts.category ?? null });
    try {
      if (entry.cancelled) {
        // A cancelled event is not imported; one imported earlier goes to the trash.
        events.skipped++;
        if (localId !== null && mapped!.hash !== hash && !opts.dryRun) {
          const status = (await as.prisma.event.findUniqueOrThrow({ where: { id: localId }, select: { status: true } })).status;
          if (status !== 'trash') {
            await trashEvent(as, { id: localId });
            summary.pruned++;
          }
          await remember(entry.uid, localId, hash);
        }
      } else if (localId !== null && mapped!.hash === hash) {
        events.unchanged++;
      } else if (opts.dryRun) {
        events[localId === null ? 'created' : 'updated']++;
      } else {
        const { id, complete } = await write(entry, localId);
        await remember(entry.uid, id, complete ? hash : '');
        events[localId === null ? 'created' : 'updated']++;
      }
    } catch (error) {
      fail(entry.uid, localId, error);
    } finally {
      progress.tick('events');
    }
  }

  if (opts.prune) {
    for (const [key, row] of known) {
      if (seen.has(key)) continue;
      try {
        if (opts.dryRun) continue;
        if (present.has(row.localId) && (await as.prisma.event.findUniqueOrThrow({ where: { id: row.localId }, select: { status: true } })).status !== 'trash') {
          await trashEvent(as, { id: row.localId });
          summary.pruned++;
        }
        await ctx.prisma.transferMapping.delete({ where: { source_kind_sourceId: { source: row.source, kind: 'event', sourceId: 0 } } });
      } catch (error) {
        fail(null, row.localId, error);
      }
    }
  }
  summary.kinds.categories.created = (await ctx.prisma.category.count()) - categoriesBefore;
  progress.stop();
  const seconds = (Date.now() - started) / 1000;
  const total = KINDS.reduce((n, k) => n + Object.values(summary.kinds[k]).reduce((a, b) => a + b, 0), 0);
  summary.seconds = Math.round(seconds * 10) / 10;
  summary.rate = Math.round(total / Math.max(seconds, 0.001));
  return summary;
}
