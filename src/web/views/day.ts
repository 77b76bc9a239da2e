/**
 * The day view (`/events/today/`, `/events/YYYY-MM-DD/`, each scope's `…/YYYY-MM-DD/`): every
 * event the core places on that day (Query.calendarDays), with previous/next day links.
 */
import type { Context } from 'koa';
import { DateTime } from 'luxon';
import { ViewCalendarDaysDocument } from '../generated/operations.ts';
import { longDate } from '../format.ts';
import type { Site } from '../site.ts';
import { eventRow, siteToday, viewData, viewFilter, viewHead, viewPath, viewUrl, type Scope } from './common.ts';
import type { ViewRequest } from './request.ts';

export async function dayView(site: Site, ctx: Context, scope: Scope, req: ViewRequest) {
  const t = site.t(ctx);
  const urls = site.urls(ctx);
  const date = req.date ?? siteToday(site);
  const d = DateTime.fromISO(date, { zone: 'utc' }).setLocale(site.lang(ctx));
  const data = await site.run(ctx, ViewCalendarDaysDocument, { from: date, to: date, filter: viewFilter(scope, req) });
  const day = data.calendarDays[0];
  const label = longDate(d);
  const heading = scope.name ? `${scope.name} · ${label}` : t('day.heading', { date: label });
  const prevDay = d.minus({ days: 1 });
  const nextDay = d.plus({ days: 1 });
  const prev = viewUrl(urls, scope, `${prevDay.toISODate()}/`, req.search);
  const next = viewUrl(urls, scope, `${nextDay.toISODate()}/`, req.search);
  site.render(
    ctx,
    200,
    'day',
    {
      ...viewData(site, ctx, scope, req, date),
      heading,
      date,
      today: day?.today ?? false,
      events: (day?.events ?? []).map((e) => eventRow(site, ctx, e, date)),
      prev: { url: prev, label: longDate(prevDay) },
      next: { url: next, label: longDate(nextDay) },
    },
    {
      pageTitle: heading,
      ...viewHead(site, ctx, scope, req, {
        title: heading,
        path: viewPath(scope, req.date ? `${req.date}/` : 'today/', req.search),
        summary: t('meta.day', { date: label }),
        events: day?.events ?? [],
      }),
      feedUrl: scope.feedUrl,
      prev,
      next,
      apiRoot: scope.apiRoot,
      scripts: ['views.js'],
    },
  );
}
