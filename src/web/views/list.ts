/**
 * The list view (`/events/`, `/events/list/`, the home page, every scope's `…/list/`), as TEC's
 * List_View lists: the events that end after an instant (now, or the start of the day asked for with
 * `tribe-bar-date`), earliest first, so events already running come first; past events
 * (`eventDisplay=past`) are those that ended before it, latest first. Paged as TEC pages it
 * (`…/list/page/2/`, `?page=2`, `<link rel=prev/next>`); its navigation leads from the first page of
 * one side to the other (upcoming ↔ past) when the other has events, and "Today" back to now. Rows
 * are TEC's: a date tag, month separators, title, venue and address, excerpt, cost.
 */
import type { Context } from 'koa';
import { DateTime } from 'luxon';
import { ViewEventListDocument, type EventFilter } from '../generated/operations.ts';
import { PageRefusal } from '../page-data.ts';
import type { Site } from '../site.ts';
import { longDate } from '../format.ts';
import { eventRow, siteToday, viewData, viewFilter, viewHead, viewSubscribe, type EventRow, type Scope, type Step } from './common.ts';
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
 * Rows under their month: TEC dates an event already running by the day asked for (or today), not
 * by its start, so an upcoming list shows nothing "in the past"; past lists date events by their start.
 */
function byMonth(rows: EventRow[], fromDay: string | undefined, lang: string) {
  const groups: Array<{ month: string; label: string; rows: Array<{ e: EventRow; badge: { date: string; weekday: string; day: number } }> }> = [];
  for (const e of rows) {
    const date = fromDay && e.first < fromDay ? fromDay : e.first;
    const d = DateTime.fromISO(date, { zone: 'utc' }).setLocale(lang);
    const month = date.slice(0, 7);
    if (groups.at(-1)?.month !== month) groups.push({ month, label: d.toFormat('LLLL yyyy'), rows: [] });
    groups.at(-1)!.rows.push({ e, badge: { date, weekday: d.toFormat('ccc'), day: d.day } });
  }
  return groups;
}

/**
 * `home`: the home page's list; `root`: asked at the scope's own address (`/events/`,
 * `/events/category/music/`), its canonical URL when it is the plain upcoming list.
 */
export async function listView(site: Site, ctx: Context, scope: Scope, req: ViewRequest, opts: { home?: boolean; root?: boolean } = {}) {
  const t = site.t(ctx);
  const lang = site.lang(ctx);
  // The instant the list turns on: the start of the day asked for (site zone), else the core's
  // `now` (the request's clock; the same variables each time, so the byte cache's key stays stable).
  const instant = req.date ? DateTime.fromISO(req.date, { zone: site.config.site.timezone }).toISO()! : 'now';
  const upcoming: EventFilter = { ...viewFilter(scope, req), endsAfter: instant, strictDates: true };
  const past: EventFilter = { ...viewFilter(scope, req), endsBefore: instant, strictDates: true };
  const perPage = site.config.site.postsPerPage;
  const data = await site.run(ctx, ViewEventListDocument, {
    filter: req.past ? past : upcoming,
    order: req.past ? 'DESC' : 'ASC',
    page: req.page,
    perPage,
    other: req.past ? upcoming : past,
  });
  const list = data.events;
  if (req.page > 1 && req.page > list.totalPages) throw new PageRefusal(404);
  const at = (page: number, r: ViewRequest = req) => pageUrl(site, ctx, scope, r, page);
  // <link rel=prev/next>: the pages of this list.
  const prev = req.page > 1 ? at(req.page - 1) : undefined;
  const next = req.page < list.totalPages ? at(req.page + 1) : undefined;
  // The visible navigation (TEC's List_View prev_url/next_url): past lists run backwards in time, and
  // the first page of either side leads to the other side when it has events.
  const other = data.other.totalCount > 0 ? at(1, { ...req, past: !req.past, page: 1 }) : undefined;
  const earlier: Step = { label: t('list.prev'), url: req.past ? next : (prev ?? other) };
  const later: Step = { label: t('list.next'), url: req.past ? (prev ?? other) : next };
  const heading = scope.name ?? (req.past ? t('list.past') : opts.home ? t('list.upcoming') : t('list.heading'));
  const pageTitle = req.page > 1 ? `${heading} · ${t('list.page', { page: req.page, pages: list.totalPages })}` : heading;
  const plain = req.page === 1 && !req.past && !req.date && !req.search;
  const path = opts.home ? '/' : plain && opts.root ? `${scope.base}/` : pagePath(scope, req, req.page);
  const otherList = req.past
    ? { label: t('list.showUpcoming'), url: at(1, { ...req, past: false, date: undefined, page: 1 }) }
    : { label: t('list.showPast'), url: at(1, { ...req, past: true, date: undefined, page: 1 }) };
  const rows = list.nodes.map((e) => eventRow(site, ctx, e));
  site.render(
    ctx,
    200,
    'list',
    {
      ...viewData(site, ctx, scope, req, req.date ?? siteToday(site), viewSubscribe(site, ctx, scope, req, pagePath(scope, req, req.page), heading)),
      heading,
      subheading: req.search ? t('list.searchFor', { search: req.search }) : req.date && !req.past ? t('list.from', { date: longDate(DateTime.fromISO(req.date, { zone: 'utc' }).setLocale(lang)) }) : '',
      groups: byMonth(rows, req.past ? undefined : (req.date ?? siteToday(site)), lang),
      total: list.totalCount,
      page: list.page,
      pages: list.totalPages,
      nav: { kind: 'pager', label: t('list.pagination'), prev: earlier, next: later, today: { url: at(1, { ...req, past: false, date: undefined, page: 1 }), label: t('nav.today') } },
      otherList,
      empty: req.past || req.search || req.date ? t('list.empty') : t('list.emptyUpcoming'),
    },
    {
      pageTitle,
      ...viewHead(site, ctx, scope, req, {
        title: pageTitle,
        path,
        summary: req.past ? t('meta.past') : req.date ? t('meta.from', { date: longDate(DateTime.fromISO(req.date, { zone: 'utc' }).setLocale(lang)) }) : t('meta.upcoming'),
        events: list.nodes,
        first: (list.page - 1) * list.perPage + 1,
      }),
      feedUrl: scope.feedUrl,
      prev,
      next,
      apiRoot: scope.apiRoot,
      scripts: ['views.js'],
      home: opts.home,
    },
  );
}
