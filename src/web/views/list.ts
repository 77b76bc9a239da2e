/**
 * The list view (`/events/`, `/events/list/`, the home page, every scope's `…/list/`): upcoming
 * events by default (the core's default window), from a date with `tribe-bar-date`, past events
 * latest first with `eventDisplay=past`; paged as TEC pages it (`…/list/page/2/`, `?page=2`), with
 * `<link rel=prev/next>` and visible links.
 */
import type { Context } from 'koa';
import { DateTime } from 'luxon';
import { ViewEventListDocument, type EventFilter } from '../generated/operations.ts';
import { PageRefusal } from '../page-data.ts';
import type { Site } from '../site.ts';
import { longDate } from '../format.ts';
import { eventRow, siteToday, viewData, viewFilter, viewHead, type Scope } from './common.ts';
import type { ViewRequest } from './request.ts';

/** The list page's path under the home (page 1: the list itself). */
function pagePath(scope: Scope, req: ViewRequest, page: number): string {
  const query = new URLSearchParams();
  if (req.past) query.set('eventDisplay', 'past');
  if (req.date) query.set('tribe-bar-date', req.date);
  if (req.search) query.set('tribe-bar-search', req.search);
  const qs = query.size ? `?${query}` : '';
  return `${scope.base}/list/${page > 1 ? `page/${page}/` : ''}${qs}`;
}

const pageUrl = (site: Site, ctx: Context, scope: Scope, req: ViewRequest, page: number) => site.urls(ctx).home + pagePath(scope, req, page);

/**
 * `home`: the home page's list; `root`: asked at the scope's own address (`/events/`,
 * `/events/category/music/`), its canonical URL when it is the plain upcoming list.
 */
export async function listView(site: Site, ctx: Context, scope: Scope, req: ViewRequest, opts: { home?: boolean; root?: boolean } = {}) {
  const t = site.t(ctx);
  const now = site.now();
  // Past: events that have ended, latest first; from a date: events from that day on; else the core's default window.
  const filter: EventFilter = {
    ...viewFilter(scope, req),
    ...(req.past ? { endsBefore: now.toISOString(), strictDates: true } : req.date ? { startDate: req.date } : {}),
  };
  const perPage = site.config.site.postsPerPage;
  const data = await site.run(ctx, ViewEventListDocument, { filter, order: req.past ? 'DESC' : 'ASC', page: req.page, perPage });
  const list = data.events;
  if (req.page > 1 && req.page > list.totalPages) throw new PageRefusal(404);
  const prev = req.page > 1 ? pageUrl(site, ctx, scope, req, req.page - 1) : undefined;
  const next = req.page < list.totalPages ? pageUrl(site, ctx, scope, req, req.page + 1) : undefined;
  const heading = scope.name ?? (req.past ? t('list.past') : opts.home ? t('list.upcoming') : t('list.heading'));
  const pageTitle = req.page > 1 ? `${heading} · ${t('list.page', { page: req.page, pages: list.totalPages })}` : heading;
  const plain = req.page === 1 && !req.past && !req.date && !req.search;
  const otherList = req.past
    ? { label: t('list.showUpcoming'), url: pageUrl(site, ctx, scope, { ...req, past: false, date: undefined }, 1) }
    : { label: t('list.showPast'), url: pageUrl(site, ctx, scope, { ...req, past: true, date: undefined }, 1) };
  site.render(
    ctx,
    200,
    'list',
    {
      ...viewData(site, ctx, scope, req, req.date ?? siteToday(site)),
      home: Boolean(opts.home),
      heading,
      subheading: req.search ? t('list.searchFor', { search: req.search }) : req.date && !req.past ? t('list.from', { date: req.date }) : '',
      events: list.nodes.map((e) => eventRow(site, ctx, e)),
      total: list.totalCount,
      page: list.page,
      pages: list.totalPages,
      prev,
      next,
      otherList,
      empty: req.past || req.search || req.date ? t('list.empty') : t('list.emptyUpcoming'),
    },
    {
      pageTitle,
      ...viewHead(site, ctx, scope, req, {
        title: pageTitle,
        path: opts.home ? '/' : plain && opts.root ? `${scope.base}/` : pagePath(scope, req, req.page),
        summary: req.past ? t('meta.past') : req.date ? t('meta.from', { date: longDate(DateTime.fromISO(req.date, { zone: 'utc' }).setLocale(site.lang(ctx))) }) : t('meta.upcoming'),
        events: list.nodes,
        first: (list.page - 1) * list.perPage + 1,
      }),
      feedUrl: scope.feedUrl,
      prev,
      next,
      apiRoot: scope.apiRoot,
      scripts: ['views.js'],
    },
  );
}
