/**
 * The month view (`/events/month/`, `/events/YYYY-MM/`, TEC's `/events/month/YYYY-MM/`, each
 * scope's `…/month/`): a table of weeks (Monday first) whose cells hold the events the core places
 * on each day (Query.calendarDays: multi-day and all-day events on every day they span, each
 * occurrence of a series), at most MONTH_EVENTS_PER_DAY per cell with a "+N more" link to the day
 * view; previous/next month links; today marked (`aria-current="date"`). On narrow screens the CSS
 * turns the table into a list of the days that have events.
 */
import type { Context } from 'koa';
import { DateTime } from 'luxon';
import { ViewCalendarDaysDocument } from '../generated/operations.ts';
import { longDate } from '../format.ts';
import type { Site } from '../site.ts';
import { eventRow, siteToday, viewData, viewFilter, viewHead, viewPath, viewUrl, type Scope } from './common.ts';
import type { ViewRequest } from './request.ts';

/** Events shown in one cell before "+N more". */
export const MONTH_EVENTS_PER_DAY = 3;

export async function monthView(site: Site, ctx: Context, scope: Scope, req: ViewRequest) {
  const t = site.t(ctx);
  const lang = site.lang(ctx);
  const urls = site.urls(ctx);
  const month = DateTime.fromISO(`${req.date ?? siteToday(site).slice(0, 7)}-01`, { zone: 'utc' }).setLocale(lang);
  const gridStart = month.minus({ days: month.weekday - 1 });
  const last = month.endOf('month').startOf('day');
  const gridEnd = last.plus({ days: 7 - last.weekday });
  const data = await site.run(ctx, ViewCalendarDaysDocument, {
    from: gridStart.toISODate() ?? '',
    to: gridEnd.toISODate() ?? '',
    filter: viewFilter(scope, req),
    eventsPerDay: MONTH_EVENTS_PER_DAY,
  });
  const ym = (d: DateTime) => d.toFormat('yyyy-MM');
  const weeks: Array<Array<Record<string, unknown>>> = [];
  data.calendarDays.forEach((day, i) => {
    const d = DateTime.fromISO(day.date, { zone: 'utc' }).setLocale(lang);
    if (i % 7 === 0) weeks.push([]);
    weeks[weeks.length - 1]!.push({
      date: day.date,
      number: d.day,
      label: longDate(d),
      weekday: d.toFormat('ccc'),
      inMonth: d.hasSame(month, 'month'),
      today: day.today,
      url: viewUrl(urls, scope, `${day.date}/`, req.search),
      events: day.events.map((e) => eventRow(site, ctx, e, day.date)),
      more: day.totalCount - day.events.length,
      moreLabel: t('month.moreLabel', { count: day.totalCount - day.events.length, date: longDate(d) }),
    });
  });
  const weekdays = data.calendarDays.slice(0, 7).map((day) => {
    const d = DateTime.fromISO(day.date, { zone: 'utc' }).setLocale(lang);
    return { short: d.toFormat('ccc'), long: d.toFormat('cccc') };
  });
  const prevMonth = month.minus({ months: 1 });
  const nextMonth = month.plus({ months: 1 });
  const monthName = month.toFormat('LLLL yyyy');
  const heading = scope.name ? `${scope.name} · ${monthName}` : t('month.heading', { month: monthName });
  const prev = viewUrl(urls, scope, `${ym(prevMonth)}/`, req.search);
  const next = viewUrl(urls, scope, `${ym(nextMonth)}/`, req.search);
  const hasEvents = data.calendarDays.some((d) => d.totalCount > 0 && d.date.startsWith(ym(month)));
  site.render(
    ctx,
    200,
    'month',
    {
      ...viewData(site, ctx, scope, req, req.date ? `${req.date}-01` : siteToday(site)),
      heading,
      monthName,
      weekdays,
      weeks,
      hasEvents,
      prev: { url: prev, label: prevMonth.toFormat('LLLL yyyy') },
      next: { url: next, label: nextMonth.toFormat('LLLL yyyy') },
      todayUrl: viewUrl(urls, scope, 'month/', req.search),
    },
    {
      pageTitle: heading,
      ...viewHead(site, ctx, scope, req, {
        title: heading,
        path: viewPath(scope, req.date ? `${req.date}/` : 'month/', req.search),
        summary: t('meta.month', { month: monthName }),
        events: data.calendarDays.flatMap((day) => day.events),
      }),
      feedUrl: scope.feedUrl,
      prev,
      next,
      apiRoot: scope.apiRoot,
      scripts: ['views.js'],
    },
  );
}
