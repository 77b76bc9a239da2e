/**
 * The day view (`/events/today/`, `/events/YYYY-MM-DD/`, each scope's `…/YYYY-MM-DD/`): every
 * event the core places on that day (Query.calendarDays), in the core's day order under TEC's
 * separators — all day, ongoing (begun on an earlier day), then each start time — each with its
 * whole span. Previous/next day (disabled when no event lies that way) and today; an empty day
 * leads to the day of the next upcoming events.
 */
import type { Context } from 'koa';
import { DateTime } from 'luxon';
import { clock, longDate } from '../format.ts';
import type { Site } from '../site.ts';
import { calendarClock, calendarRange, eventRow, rangeNav, siteToday, viewData, viewHead, viewPath, viewSubscribe, viewUrl, type EventRow, type Scope } from './common.ts';
import type { ViewRequest } from './request.ts';

export async function dayView(site: Site, ctx: Context, scope: Scope, req: ViewRequest) {
  const t = site.t(ctx);
  const lang = site.lang(ctx);
  const urls = site.urls(ctx);
  const date = req.date ?? siteToday(site);
  const search = req.search;
  const d = DateTime.fromISO(date, { zone: 'utc' }).setLocale(lang);
  const data = await calendarRange(site, ctx, scope, req, { from: date, to: date }, undefined, true);
  const day = data.calendarDays[0];
  const events = day?.events ?? [];
  const label = longDate(d);
  const heading = scope.name ? `${scope.name} · ${label}` : t('day.heading', { date: label });
  const prevDay = d.minus({ days: 1 });
  const nextDay = d.plus({ days: 1 });
  const prev = viewUrl(urls, scope, `${prevDay.toISODate()}/`, { search });
  const next = viewUrl(urls, scope, `${nextDay.toISODate()}/`, { search });
  // TEC's separators: the core orders all-day, ongoing, then by start; a group per start time after them.
  const groups: Array<{ label: string; events: EventRow[] }> = [];
  for (const e of events) {
    const row = eventRow(site, ctx, e, date);
    const group = row.allDay ? t('day.allDay') : row.first < date ? t('day.ongoing') : clock(DateTime.fromSQL(calendarClock(site, e).start, { zone: 'utc' }).setLocale(lang));
    if (groups.at(-1)?.label !== group) groups.push({ label: group, events: [] });
    groups.at(-1)!.events.push(row);
  }
  const upcoming = data.next?.nodes[0]?.daySpan.first;
  const path = viewPath(scope, req.date ? `${req.date}/` : 'today/', { search });
  site.render(
    ctx,
    200,
    'day',
    {
      ...viewData(site, ctx, scope, req, date, viewSubscribe(site, ctx, scope, req, path, heading)),
      heading,
      date,
      today: day?.today ?? false,
      groups,
      empty: t('day.emptyFor', { date: label }),
      jump: upcoming ? { url: viewUrl(urls, scope, `${upcoming}/`, { search }), text: t('day.jump').split('{link}'), link: t('day.jumpLink') } : null,
      nav: rangeNav(site, ctx, scope, req, data, {
        kind: 'day',
        prev: { url: prev, label: longDate(prevDay) },
        next: { url: next, label: longDate(nextDay) },
        todayPath: 'today/',
      }),
    },
    {
      pageTitle: heading,
      ...viewHead(site, ctx, scope, req, { title: heading, path, summary: t('meta.day', { date: label }), events }),
      feedUrl: scope.feedUrl,
      prev,
      next,
      apiRoot: scope.apiRoot,
      scripts: ['views.js'],
    },
  );
}
