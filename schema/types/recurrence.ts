/**
 * Recurring series in GraphQL: `Event.recurrence`, `Event.series`, `Event.occurrences`,
 * `Event.occurrenceOverridden`, and `cancelOccurrence`. Rules live in src/services/recurrence.ts.
 */
import { queryFromInfo } from '@pothos/plugin-prisma';
import { parseSeriesRule } from '../../src/domain/recurrence.ts';
import { RULE_TEXT_LANGS, ruleTextIn } from '../../src/domain/recurrence-text.ts';
import { dateToWallClock, wallClockToDate } from '../../src/domain/wall-clock.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { cancelOccurrence } from '../../src/services/recurrence.ts';
import { readableWhere, viewerCanRead } from '../../src/services/visibility.ts';
import { builder } from '../builder.ts';
import { writeErrors } from '../errors.ts';
import { globalId, recordId } from '../ids.ts';
import { EventRef } from './event.ts';

interface SeriesFields {
  recurrenceRules: string[];
  recurrenceStart: Date | null;
  recurrenceRdates: Date[];
  recurrenceExdates: Date[];
  timezone: string;
}
const SERIES_SELECT = { recurrenceRules: true, recurrenceStart: true, recurrenceRdates: true, recurrenceExdates: true, timezone: true } as const;

type Series = SeriesFields & { recurrenceStart: Date };
const isSeries = (s: SeriesFields | null): s is Series => Boolean(s?.recurrenceStart);

const RecurrenceRef = builder.objectRef<Series>('Recurrence').implement({
  description: 'The recurrence of a series (RFC 5545): its rules, extra and excluded dates, in the series time zone.',
  fields: (t) => ({
    rule: t.string({ description: 'RRULE text (no DTSTART): the first of `rules`; empty for a series of RDATEs only.', resolve: (s) => s.recurrenceRules[0] ?? '' }),
    rules: t.stringList({ description: 'Every RRULE of the series (their union; RFC 5545 allows several); empty for a series of RDATEs only.', resolve: (s) => s.recurrenceRules }),
    text: t.string({
      description: `The rules in words, e.g. "every week on Tuesday until June 30, 2027" (English), "chaque semaine le mardi jusqu'au 30 juin 2027" (fr); several rules joined by "; ", empty for RDATEs only.`,
      args: { lang: t.arg.string({ description: `Language: ${RULE_TEXT_LANGS.join(', ')} (the REST languages); default and anything else: en.` }) },
      resolve: (s, args) => s.recurrenceRules.map((rule) => ruleTextIn(parseSeriesRule(rule, s.timezone).options, s.recurrenceStart, args.lang)).join('; '),
    }),
    start: t.string({ description: 'DTSTART, event-local wall clock.', resolve: (s) => dateToWallClock(s.recurrenceStart) }),
    exdates: t.stringList({ description: 'Excluded occurrences, event-local wall clocks.', resolve: (s) => s.recurrenceExdates.map(dateToWallClock) }),
    rdates: t.stringList({ description: 'Extra occurrences, event-local wall clocks.', resolve: (s) => s.recurrenceRdates.map(dateToWallClock) }),
  }),
});

type WithOccurrence = SeriesFields & { id: number; occurrence: { seriesId: number; overridden: boolean; series: SeriesFields } | null };
const seriesOf = (e: WithOccurrence): SeriesFields | null => (e.recurrenceStart ? e : (e.occurrence?.series ?? null));

builder.prismaObjectFields(EventRef, (t) => ({
  recurrence: t.field({
    type: RecurrenceRef,
    nullable: true,
    description: 'The series rule, on a series and on each of its occurrences; null for a single event.',
    select: { ...SERIES_SELECT, occurrence: { select: { seriesId: true, overridden: true, series: { select: SERIES_SELECT } } } },
    resolve: (e) => {
      const s = seriesOf(e);
      return isSeries(s) ? s : null;
    },
  }),
  series: t.field({
    type: EventRef,
    nullable: true,
    description: 'The series this event is an occurrence of (a series is its own first occurrence); null for a single event.',
    select: (_args, _ctx, nested) => ({ occurrence: { select: { series: nested(true) } } }),
    resolve: (e, _args, ctx) => (e.occurrence && viewerCanRead(ctx, e.occurrence.series) ? e.occurrence.series : null),
  }),
  recurrenceId: t.string({
    nullable: true,
    description:
      'On an occurrence (the series included): its RECURRENCE-ID, the event-local wall clock the rule gave it, kept when the occurrence is moved on its own; null for a single event.',
    select: { occurrence: { select: { recurrenceLocal: true } } },
    resolve: (e) => (e.occurrence ? dateToWallClock(e.occurrence.recurrenceLocal) : null),
  }),
  overrides: t.field({
    type: [EventRef],
    description: 'On a series: its other occurrences edited on their own (scope THIS) that the caller may read, in RECURRENCE-ID order; empty for anything else.',
    select: (_args, _ctx, nested) => ({
      recurrenceStart: true,
      seriesOccurrences: { where: { overridden: true }, orderBy: { recurrenceLocal: 'asc' }, select: { eventId: true, event: nested(true) } },
    }),
    resolve: (e, _args, ctx) =>
      e.recurrenceStart ? e.seriesOccurrences.filter((o) => o.eventId !== e.id && viewerCanRead(ctx, o.event)).map((o) => o.event) : [],
  }),
  occurrenceOverridden: t.boolean({
    description: 'An occurrence edited on its own (scope THIS); false for anything else.',
    select: { occurrence: { select: { overridden: true } } },
    resolve: (e) => e.occurrence?.overridden ?? false,
  }),
  occurrences: t.field({
    type: [EventRef],
    description: 'Occurrences of the series (materialized up to the horizon) starting in [after, before), in start order. Empty for a single event.',
    args: {
      after: t.arg.string({ description: 'Event-local `YYYY-MM-DD[ HH:MM:SS]`, inclusive.' }),
      before: t.arg.string({ description: 'Event-local, exclusive.' }),
      first: t.arg.int({ description: 'At most this many (at most 1000).', defaultValue: 100 }),
    },
    select: { occurrence: { select: { seriesId: true } } },
    resolve: async (e, args, ctx, info) => {
      if (!e.occurrence) return [];
      const bound = (text: string | null | undefined, field: string) => {
        if (!text) return undefined;
        const wall = text.length === 10 ? `${text} 00:00:00` : text;
        const date = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(wall) ? wallClockToDate(wall) : null;
        if (!date || Number.isNaN(date.getTime())) throw new ValidationError(`Invalid date: ${field}`, field, 'INVALID_DATE');
        return date;
      };
      const first = args.first ?? 100;
      if (first < 0 || first > 1000) throw new ValidationError('first must be between 0 and 1000.', 'first', 'OUT_OF_RANGE');
      const query = queryFromInfo({ context: ctx, info, typeName: 'Event' });
      return ctx.prisma.event.findMany({
        ...query,
        where: {
          ...readableWhere(ctx),
          occurrence: { seriesId: e.occurrence.seriesId, startLocal: { gte: bound(args.after, 'after'), lt: bound(args.before, 'before') } },
        },
        orderBy: [{ startLocal: 'asc' }, { id: 'asc' }],
        take: first,
      });
    },
  }),
}));

const CancelOccurrenceSuccess = builder.objectRef<{ id: number; seriesId: number }>('CancelOccurrenceSuccess').implement({
  description: 'The cancelled occurrence (deleted) and its series as it is now.',
  fields: (t) => ({
    deletedId: t.id({
      nullable: true,
      description:
        "Global ID of the deleted occurrence (`@deleteEdge` / `@deleteRecord`); null when it was the series' own first date (the series moved to its next one).",
      resolve: (c) => (c.id === c.seriesId ? null : globalId('Event', c.id)),
    }),
    event: t.prismaField({
      type: 'Event',
      description: 'The series (its EXDATE added; a series that lost its first occurrence starts at the next).',
      resolve: (query, c, _a, ctx) => ctx.prisma.event.findUniqueOrThrow({ ...query, where: { id: c.seriesId } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  cancelOccurrence: t.field({
    type: CancelOccurrenceSuccess,
    description: 'Cancels one occurrence: its date becomes an EXDATE of the series and the occurrence is deleted.',
    errors: { types: [...writeErrors] },
    args: { id: t.arg.id({ required: true, description: 'The occurrence: global ID, or database ID.' }) },
    resolve: async (_root, args, ctx) => {
      const id = recordId(args.id, ['Event'], 'id');
      return { id, seriesId: await cancelOccurrence(ctx, id) };
    },
  }),
}));
