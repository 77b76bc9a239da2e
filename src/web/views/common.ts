/**
 * What the calendar views share: the scope a view is filtered to (all events, a category with its
 * children, a tag), how an event reads in a row or a cell, the search and date bar, the links
 * between views, and what search engines and link previews read of a view (canonical, language
 * links, OpenGraph and Twitter meta, the JSON-LD `ItemList` of its events). The events themselves
 * come from the core (src/web/operations/events.graphql).
 */
import type { Context } from 'koa';
import { DateTime } from 'luxon';
import { postUrl } from '../../../rest-facade/presenters/util.ts';
import type { WpUrls } from '../../../rest-facade/wp/types.ts';
import { htmlToText } from '../../domain/text.ts';
import { utcToLocal } from '../../domain/wall-clock.ts';
import { addDays } from '../../domain/calendar-days.ts';
import { ViewCalendarDaysDocument, type EventFilter, type PostStatus, type ViewEventFragment } from '../generated/operations.ts';
import { describeWhen, displayTitle, isoStart, lockedIsoStart, timesOn } from '../format.ts';
import { addressLine, eventItemList, eventJsonLd, headHtml, scriptJson, type SeoEvent, type SeoVenue } from '../seo.ts';
import type { PageHead, Site } from '../site.ts';
import { subscribeLinks } from '../subscribe.ts';
import type { ViewName, ViewRequest } from './request.ts';

export interface Scope {
  kind: 'all' | 'category' | 'tag';
  /** Path of the scope under the home URL, no trailing slash: `/events`, `/events/category/music/jazz`, `/events/tag/outdoor`. */
  base: string;
  /** Heading of a term archive. */
  name?: string;
  /** A term's description (HTML from the core). */
  description?: string;
  /** The filter of the scope (`categories` includes the children: the core's rule). */
  filter: EventFilter;
  /** Where the scope's data lives in the REST API (`X-TEC-API-ROOT`). */
  apiRoot?: string;
  /** The scope's iCal feed. */
  feedUrl?: string;
  slug?: string;
}

/** The filter of a request: the scope's and the bar's words. */
export const viewFilter = (scope: Scope, req: ViewRequest): EventFilter => (req.search ? { ...scope.filter, search: req.search } : scope.filter);

/** Start and end of an event as the calendar places it: event-local (timezone mode `event`) or in the site's zone (`site`). */
export function calendarClock(site: Site, e: ViewEventFragment): { start: string; end: string } {
  if (site.config.site.timezoneMode === 'event' || e.allDay) return { start: e.startDate, end: e.endDate };
  const zone = site.config.site.timezone;
  return { start: utcToLocal(e.startDateUtc, zone), end: utcToLocal(e.endDateUtc, zone) };
}

export interface EventRow {
  id: number;
  url: string;
  /** HTML (the core's display title). */
  title: string;
  /** Its whole span in words: day(s) and, unless all day, times. */
  when: string;
  /** Times on the grid's day (month cells). */
  times: string;
  isoStart: string;
  allDay: boolean;
  featured: boolean;
  /** The event's zone when it is not the site's (times are that zone's). */
  zone?: string;
  venueName?: string;
  venueUrl?: string;
  venueAddress?: string;
  /** HTML (the core's excerpt). */
  excerpt: string;
  /** Formatted (`$15 – $25`), or ''. */
  cost: string;
  image?: { url: string; width: number | null; height: number | null };
  /** The calendar days it falls on (the core's Event.daySpan). */
  first: string;
  last: string;
  /** Password-protected and not opened by this visitor: title and day only. */
  locked: boolean;
}

/**
 * An event as a view shows it. A locked one (a password the visitor has not given: the core's
 * `locked`) keeps its place, day and title only, as TEC's views keep them: no times, venue,
 * address, excerpt, cost or image.
 */
export function eventRow(site: Site, ctx: Context, e: ViewEventFragment, day?: string): EventRow {
  const urls = site.urls(ctx);
  const lang = site.lang(ctx);
  const t = site.t(ctx);
  const { start, end } = calendarClock(site, e);
  const locked = e.locked;
  const venue = locked ? undefined : e.venues[0];
  const otherZone = !locked && site.config.site.timezoneMode === 'event' && !e.allDay && e.timezone !== site.config.site.timezone;
  return {
    id: e.databaseId,
    url: postUrl(urls, 'cal_events', e.databaseId, e.status, e.slug),
    title: displayTitle(e, t),
    when: locked ? '' : describeWhen(e.allDay, start, end, lang, t('event.allDay').toLowerCase()),
    times: day && !locked ? timesOn(day, e.allDay, start, end, lang) : '',
    isoStart: locked ? lockedIsoStart(start) : isoStart(e.allDay, e.startDate, e.startsAt, e.timezone),
    allDay: e.allDay,
    featured: e.featured,
    zone: otherZone ? e.timezoneAbbr || e.timezone : undefined,
    venueName: venue?.name,
    venueUrl: venue ? postUrl(urls, 'cal_venue', venue.databaseId, venue.status, venue.slug) : undefined,
    venueAddress: venue ? addressLine(venue) : undefined,
    excerpt: locked ? '' : e.excerpt,
    cost: locked ? '' : e.cost,
    image: e.image && !locked ? { url: e.image.url, width: e.image.width, height: e.image.height } : undefined,
    first: e.daySpan.first,
    last: e.daySpan.last,
    locked,
  };
}

/** The site's current day, `YYYY-MM-DD`. */
export const siteToday = (site: Site) => DateTime.fromJSDate(site.now(), { zone: site.config.site.timezone }).toFormat('yyyy-MM-dd');

/** A view's query: the date browsed and the bar's words, as TEC names them. */
export interface ViewQuery {
  date?: string;
  search?: string;
}

/** Path under the home of a view of a scope (language prefix excluded), with its query. */
export function viewPath(scope: Scope, path: string, query: ViewQuery = {}): string {
  const q = new URLSearchParams();
  if (query.date) q.set('tribe-bar-date', query.date);
  if (query.search) q.set('tribe-bar-search', query.search);
  return `${scope.base}/${path}${q.size ? `?${q}` : ''}`;
}

/** Absolute URL of a view of a scope, with its query. */
export function viewUrl(urls: WpUrls, scope: Scope, path: string, query: ViewQuery = {}): string {
  return urls.home + viewPath(scope, path, query);
}

/**
 * The search and date bar and the view switcher of every view. The switcher keeps the date being
 * browsed (a month's first day, a list's start, a day); a view of "now" (upcoming list, current
 * month, today) switches to the other views of now.
 */
export function barData(site: Site, ctx: Context, scope: Scope, req: ViewRequest, date: string) {
  const urls = site.urls(ctx);
  const t = site.t(ctx);
  const day = date.length === 10 ? date : `${date}-01`;
  const dated = req.date !== undefined;
  const search = req.search;
  const views: Array<{ name: ViewName; label: string; url: string; current: boolean }> = [
    { name: 'list', label: t('view.list'), url: viewUrl(urls, scope, 'list/', { date: dated ? day : undefined, search }), current: req.view === 'list' },
    { name: 'month', label: t('view.month'), url: viewUrl(urls, scope, dated ? `${day.slice(0, 7)}/` : 'month/', { search }), current: req.view === 'month' },
    { name: 'day', label: t('view.day'), url: viewUrl(urls, scope, dated ? `${day}/` : 'today/', { search }), current: req.view === 'day' },
  ];
  return {
    action: `${urls.home}${scope.base}/${req.view === 'list' ? 'list/' : req.view === 'month' ? 'month/' : 'day/'}`,
    view: req.view,
    past: req.past,
    search: search ?? '',
    // The list without a date lists what is upcoming: the field stays empty.
    date: req.view === 'list' && !req.date ? '' : day,
    views,
  };
}

/**
 * The "Subscribe to calendar" menu of a view: the scope's feed as TEC's links carry it (its
 * category or tag, the date browsed, the bar's words) and the view's own events as a file
 * (`exportPath`: the view's path under the home, `?ical=1` added).
 */
export function viewSubscribe(site: Site, ctx: Context, scope: Scope, req: ViewRequest, exportPath: string, title: string) {
  const urls = site.urls(ctx);
  const args: Array<[string, string]> = [['post_type', 'tribe_events']];
  if (req.date) args.push(['tribe-bar-date', req.date]);
  if (scope.kind === 'category' && scope.slug) args.push(['tribe_events_cat', scope.slug]);
  if (scope.kind === 'tag' && scope.slug) args.push(['tag', scope.slug]);
  if (req.search) args.push(['tribe-bar-search', req.search]);
  const exportUrl = `${urls.home}${exportPath}${exportPath.includes('?') ? '&' : '?'}ical=1`;
  return subscribeLinks({ home: urls.home, args }, exportUrl, `${site.name} ${htmlToText(title)}`, site.t(ctx));
}

/** Data every view template receives. */
export function viewData(site: Site, ctx: Context, scope: Scope, req: ViewRequest, date: string, subscribe: ReturnType<typeof viewSubscribe>) {
  return { scope, bar: barData(site, ctx, scope, req, date), subscribe };
}

/**
 * The core's calendar days `from`–`to` of a view, and what lies around `around` (default the same
 * days): whether an event begins before its first day (`before`) or ends after its last (`after`),
 * and with `withNext` the first event beginning after it (`next`). Non-strict bounds name whole days
 * of the core's calendar (multi-day cutoff included).
 */
export function calendarRange(site: Site, ctx: Context, scope: Scope, req: ViewRequest, days: { from: string; to: string }, around = days, withNext = false) {
  const filter = viewFilter(scope, req);
  return site.run(ctx, ViewCalendarDaysDocument, {
    ...days,
    filter,
    before: { ...filter, startsBefore: addDays(around.from, -1) },
    after: { ...filter, endsAfter: around.to },
    next: withNext ? { ...filter, startsAfter: around.to } : null,
    withNext,
  });
}

/** One side of a view's previous / next navigation: a link, or nothing that way (disabled). */
export interface Step {
  url?: string;
  /** What it leads to (`December 2026`, `Previous events`). */
  label: string;
}

/**
 * Previous / Today / Next of a month or a day (step.eta): a side leads on only when an event of the
 * view lies that way (`calendarRange`'s `before` and `after`). `todayPath`: the view of now.
 */
export function rangeNav(
  site: Site,
  ctx: Context,
  scope: Scope,
  req: ViewRequest,
  around: { before: { totalCount: number }; after: { totalCount: number } },
  sides: { kind: 'month' | 'day'; prev: Required<Step>; next: Required<Step>; todayPath: string },
) {
  const t = site.t(ctx);
  const { kind } = sides;
  return {
    kind,
    label: t(`${kind}.navigation`),
    prev: { label: sides.prev.label, url: around.before.totalCount > 0 ? sides.prev.url : undefined, hidden: t(`${kind}.prev`) },
    next: { label: sides.next.label, url: around.after.totalCount > 0 ? sides.next.url : undefined, hidden: t(`${kind}.next`) },
    today: { url: viewUrl(site.urls(ctx), scope, sides.todayPath, { search: req.search }), label: t('nav.today') },
  };
}

/** What a view tells search engines and link previews (viewHead). */
export interface ViewSeo {
  /** The view's title (the page's `<title>` without the site name). */
  title: string;
  /** Canonical path under the home, language prefix excluded (`/events/2026-12/`, `/events/list/page/2/`). */
  path: string;
  /** What the view shows, one sentence in the page's language (`meta.*` strings). */
  summary: string;
  /** The events the view shows, in its order (an event on several days of a grid counts once). */
  events: readonly ViewEventFragment[];
  /** Position of the first event in the whole list (a later list page goes on counting). */
  first?: number;
}

/**
 * The head of a calendar view, as the record pages have theirs (seo.ts `headHtml`): canonical URL,
 * language alternates, description, OpenGraph (`og:type` website) and Twitter card meta; and a
 * JSON-LD `ItemList` whose items are the schema.org `Event`s of the event pages (seo.ts `eventJsonLd`).
 */
export function viewHead(site: Site, ctx: Context, scope: Scope, req: ViewRequest, seo: ViewSeo): Pick<PageHead, 'head' | 'jsonLd'> {
  const urls = site.urls(ctx);
  const t = site.t(ctx);
  const title = htmlToText(seo.title);
  const name = scope.name ? htmlToText(scope.name) : '';
  const description = [
    name && scope.kind === 'category' ? t('meta.category', { name }) : name && scope.kind === 'tag' ? t('meta.tag', { name }) : '',
    seo.summary,
    req.search ? t('meta.search', { search: req.search }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  // A locked event is in no JSON-LD: what it is tells the name, place and time the page hides.
  const seen = new Set<number>();
  const items = eventItems(site, ctx, seo.events.filter((e) => !e.locked && !seen.has(e.databaseId) && seen.add(e.databaseId)));
  return {
    head: headHtml({ home: urls.home, path: seo.path, title, description, siteName: site.name, type: 'website', lang: site.lang(ctx), site: urls.site }),
    jsonLd: scriptJson(eventItemList({ name: title, url: urls.home + seo.path, first: seo.first }, items)),
  };
}

/** A post as its public URL needs it (`postUrl`). */
interface Addressed {
  readonly databaseId: number;
  readonly status: PostStatus;
  readonly slug: string | null;
}

/**
 * Events as the items of a page's JSON-LD `ItemList` (seo.ts `eventItemList`): each event's page
 * URL and the schema.org `Event` its own page describes (seo.ts `eventJsonLd`), with its first venue.
 * Calendar views and the series page list their events so.
 */
export function eventItems(site: Site, ctx: Context, events: readonly (SeoEvent & Addressed & { readonly venues: readonly (SeoVenue & Addressed)[] })[]) {
  const urls = site.urls(ctx);
  return events.map((e) => {
    const url = postUrl(urls, 'cal_events', e.databaseId, e.status, e.slug);
    const venue = e.venues[0];
    const links = {
      url,
      site: urls.site,
      currencyCode: site.config.site.currencyCode,
      venue: venue ? { venue, url: postUrl(urls, 'cal_venue', venue.databaseId, venue.status, venue.slug) } : null,
    };
    return { url, event: eventJsonLd(e, links) };
  });
}
