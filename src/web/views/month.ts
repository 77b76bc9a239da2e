/**
 * The month view (`/events/month/`, `/events/YYYY-MM/`, TEC's `/events/month/YYYY-MM/`, each
 * scope's `…/month/`): a table of weeks (Monday first) whose cells hold every event the core places
 * on each day (Query.calendarDays). As in TEC's month view, all-day and multi-day events (an
 * overnight show included) are bars at the top of the cells, one per week row they cross, spanning
 * their days and kept in the same lane across the week (TEC's "stack"); the other events follow with
 * their times. Previous/next month links (disabled when no event lies that way); today marked
 * (`aria-current="date"`).
 *
 * On a phone the table is a compact grid with a marker on each day that has events; a day's number
 * leads to its events below the grid (`#cal-day-YYYY-MM-DD`: CSS `:target` shows them, views.js
 * only spares the jump), so it works without JavaScript too.
 */
import type { Context } from 'koa';
import { DateTime } from 'luxon';
import type { ViewEventFragment } from '../generated/operations.ts';
import { longDate } from '../format.ts';
import type { Site } from '../site.ts';
import { calendarRange, eventRow, rangeNav, siteToday, viewData, viewHead, viewPath, viewSubscribe, viewUrl, type EventRow, type Scope } from './common.ts';
import type { ViewRequest } from './request.ts';

/** A lane of a cell: an event's bar (on its first day in the week), its continuation, or an empty lane. */
type Slot = { kind: 'bar'; e: EventRow; span: number; fromBefore: boolean; toAfter: boolean } | { kind: 'cont'; e: EventRow } | { kind: 'spacer' };

/** Bars of the grid: all-day and multi-day events (TEC's month stack). */
const stacked = (e: EventRow) => e.allDay || e.first !== e.last;

/**
 * One week row (`dates`: its seven days): each stacked event in the lowest lane free over its days
 * of the week (earlier starts, then longer spans, first), so a bar keeps its lane across the cells it
 * crosses; a bar is drawn on its first day of the week and spans its days in it.
 */
function layWeek(dates: readonly string[], days: readonly EventRow[][]): { slots: Slot[][]; singles: EventRow[][] } {
  const spans = new Map<number, { e: EventRow; start: number; end: number }>();
  days.forEach((rows, i) => {
    for (const e of rows.filter(stacked)) {
      const seen = spans.get(e.id);
      if (seen) seen.end = i;
      else spans.set(e.id, { e, start: i, end: i });
    }
  });
  const ordered = [...spans.values()].sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const lanes: Array<Array<Slot | undefined>> = [];
  for (const { e, start, end } of ordered) {
    let lane = lanes.findIndex((l) => l.slice(start, end + 1).every((x) => x === undefined));
    if (lane < 0) lane = lanes.push(Array.from({ length: 7 }, () => undefined)) - 1;
    lanes[lane]![start] = { kind: 'bar', e, span: end - start + 1, fromBefore: e.first < dates[start]!, toAfter: e.last > dates[end]! };
    for (let i = start + 1; i <= end; i++) lanes[lane]![i] = { kind: 'cont', e };
  }
  const slots = days.map((_, i) => {
    const cell: Slot[] = lanes.map((l) => l[i] ?? { kind: 'spacer' });
    while (cell.at(-1)?.kind === 'spacer') cell.pop();
    return cell;
  });
  return { slots, singles: days.map((rows) => rows.filter((e) => !stacked(e))) };
}

export async function monthView(site: Site, ctx: Context, scope: Scope, req: ViewRequest) {
  const t = site.t(ctx);
  const lang = site.lang(ctx);
  const urls = site.urls(ctx);
  const month = DateTime.fromISO(`${req.date ?? siteToday(site).slice(0, 7)}-01`, { zone: 'utc' }).setLocale(lang);
  const gridStart = month.minus({ days: month.weekday - 1 });
  const last = month.endOf('month').startOf('day');
  const gridEnd = last.plus({ days: 7 - last.weekday });
  const grid = await calendarRange(site, ctx, scope, req, { from: gridStart.toISODate()!, to: gridEnd.toISODate()! }, { from: month.toISODate()!, to: last.toISODate()! });
  const ym = (d: DateTime) => d.toFormat('yyyy-MM');
  const search = req.search;
  const weeks: Array<Array<Record<string, unknown>>> = [];
  const panels: Array<Record<string, unknown>> = [];
  const fragments = new Map(grid.calendarDays.flatMap((day) => day.events.map((e) => [e.databaseId, e] as const)));
  // The events in the order the grid shows them first (its JSON-LD ItemList follows the page).
  const shown = new Map<number, ViewEventFragment>();
  const show = (e: EventRow) => shown.has(e.id) || shown.set(e.id, fragments.get(e.id)!);
  for (let w = 0; w < grid.calendarDays.length / 7; w++) {
    const days = grid.calendarDays.slice(w * 7, w * 7 + 7);
    const rows = days.map((day) => day.events.map((e) => eventRow(site, ctx, e, day.date)));
    const { slots, singles } = layWeek(
      days.map((d) => d.date),
      rows,
    );
    weeks.push(
      days.map((day, i) => {
        const d = DateTime.fromISO(day.date, { zone: 'utc' }).setLocale(lang);
        for (const s of slots[i]!) if (s.kind !== 'spacer') show(s.e);
        singles[i]!.forEach(show);
        const count = day.totalCount === 1 ? t('month.oneEvent') : t('month.events', { count: day.totalCount });
        panels.push({ date: day.date, label: longDate(d), url: viewUrl(urls, scope, `${day.date}/`, { search }), events: rows[i], count });
        return {
          date: day.date,
          number: d.day,
          label: longDate(d),
          count: day.totalCount ? count : '',
          inMonth: d.hasSame(month, 'month'),
          today: day.today,
          url: viewUrl(urls, scope, `${day.date}/`, { search }),
          slots: slots[i],
          singles: singles[i],
          hasEvents: day.totalCount > 0,
        };
      }),
    );
  }
  // The events below a phone's grid: a tapped day's, else today's (in this month), the month's first day with events, or its first day.
  const inMonth = grid.calendarDays.filter((d) => d.date.startsWith(ym(month)));
  const shownDay = (inMonth.find((d) => d.today) ?? inMonth.find((d) => d.totalCount > 0) ?? inMonth[0])?.date;
  const weekdays = grid.calendarDays.slice(0, 7).map((day) => {
    const d = DateTime.fromISO(day.date, { zone: 'utc' }).setLocale(lang);
    return { short: d.toFormat('ccc'), long: d.toFormat('cccc'), narrow: d.toFormat('ccccc') };
  });
  const prevMonth = month.minus({ months: 1 });
  const nextMonth = month.plus({ months: 1 });
  const monthName = month.toFormat('LLLL yyyy');
  const heading = scope.name ? `${scope.name} · ${monthName}` : t('month.heading', { month: monthName });
  const prev = viewUrl(urls, scope, `${ym(prevMonth)}/`, { search });
  const next = viewUrl(urls, scope, `${ym(nextMonth)}/`, { search });
  const hasEvents = inMonth.some((d) => d.totalCount > 0);
  const path = viewPath(scope, req.date ? `${req.date}/` : 'month/', { search });
  site.render(
    ctx,
    200,
    'month',
    {
      ...viewData(site, ctx, scope, req, req.date ? `${req.date}-01` : siteToday(site), viewSubscribe(site, ctx, scope, req, path, heading)),
      heading,
      monthName,
      weekdays,
      weeks,
      panels,
      shownDay,
      hasEvents,
      nav: rangeNav(site, ctx, scope, req, grid, {
        kind: 'month',
        prev: { url: prev, label: prevMonth.toFormat('LLLL yyyy') },
        next: { url: next, label: nextMonth.toFormat('LLLL yyyy') },
        todayPath: 'month/',
      }),
    },
    {
      pageTitle: heading,
      ...viewHead(site, ctx, scope, req, { title: heading, path, summary: t('meta.month', { month: monthName }), events: [...shown.values()] }),
      feedUrl: scope.feedUrl,
      prev,
      next,
      apiRoot: scope.apiRoot,
      scripts: ['views.js'],
    },
  );
}
