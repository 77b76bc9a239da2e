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
import type { EventFilter, PostStatus, ViewEventFragment } from '../generated/operations.ts';
import { describeWhen, isoStart, timesOn } from '../format.ts';
import { eventItemList, eventJsonLd, headHtml, scriptJson, type SeoEvent, type SeoVenue } from '../seo.ts';
import { SITE_NAME, type PageHead, type Site } from '../site.ts';
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
  when: string;
  /** Times on the grid's day (month/day views). */
  times: string;
  isoStart: string;
  allDay: boolean;
  featured: boolean;
  /** The event's zone when it is not the site's (times are that zone's). */
  zone?: string;
  venueName?: string;
  venueUrl?: string;
  /** HTML (the core's excerpt). */
  excerpt: string;
  image?: { url: string; width: number | null; height: number | null };
}

export function eventRow(site: Site, ctx: Context, e: ViewEventFragment, day?: string): EventRow {
  const urls = site.urls(ctx);
  const lang = site.lang(ctx);
  const t = site.t(ctx);
  const { start, end } = calendarClock(site, e);
  const venue = e.venues[0];
  const otherZone = site.config.site.timezoneMode === 'event' && !e.allDay && e.timezone !== site.config.site.timezone;
  return {
    id: e.databaseId,
    url: postUrl(urls, 'cal_events', e.databaseId, e.status, e.slug),
    title: e.title,
    when: describeWhen(e.allDay, start, end, lang, t('event.allDay').toLowerCase()),
    times: day ? timesOn(day, e.allDay, start, end, lang) : '',
    isoStart: isoStart(e.allDay, e.startDate, e.startDateUtc, e.timezone),
    allDay: e.allDay,
    featured: e.featured,
    zone: otherZone ? e.timezoneAbbr || e.timezone : undefined,
    venueName: venue?.name,
    venueUrl: venue ? postUrl(urls, 'cal_venue', venue.databaseId, venue.status, venue.slug) : undefined,
    excerpt: e.excerpt,
    image: e.image ? { url: e.image.url, width: e.image.width, height: e.image.height } : undefined,
  };
}

/** The site's current day, `YYYY-MM-DD`. */
export const siteToday = (site: Site) => DateTime.fromJSDate(site.now(), { zone: site.config.site.timezone }).toFormat('yyyy-MM-dd');

/** Path under the home of a view of a scope (language prefix excluded), with the bar's search kept. */
export function viewPath(scope: Scope, path: string, search?: string): string {
  const query = search ? `?${new URLSearchParams({ 'tribe-bar-search': search })}` : '';
  return `${scope.base}/${path}${query}`;
}

/** Absolute URL of a view of a scope, with the bar's search kept. */
export function viewUrl(urls: WpUrls, scope: Scope, path: string, search?: string): string {
  return urls.home + viewPath(scope, path, search);
}

/** The search and date bar and the view switcher of every view. */
export function barData(site: Site, ctx: Context, scope: Scope, req: ViewRequest, date: string) {
  const urls = site.urls(ctx);
  const views: Array<{ name: ViewName; label: string; url: string; current: boolean }> = [
    { name: 'list', label: site.t(ctx)('view.list'), url: viewUrl(urls, scope, 'list/', req.search), current: req.view === 'list' },
    { name: 'month', label: site.t(ctx)('view.month'), url: viewUrl(urls, scope, `${date.slice(0, 7)}/`, req.search), current: req.view === 'month' },
    { name: 'day', label: site.t(ctx)('view.day'), url: viewUrl(urls, scope, `${date.length === 10 ? date : `${date}-01`}/`, req.search), current: req.view === 'day' },
  ];
  return {
    action: `${urls.home}${scope.base}/${req.view === 'list' ? 'list/' : req.view === 'month' ? 'month/' : 'day/'}`,
    view: req.view,
    past: req.past,
    search: req.search ?? '',
    // The list without a date lists what is upcoming: the field stays empty.
    date: req.view === 'list' && !req.date ? '' : date.length === 10 ? date : `${date}-01`,
    views,
  };
}

/** Data every view template receives. */
export function viewData(site: Site, ctx: Context, scope: Scope, req: ViewRequest, date: string) {
  return { scope, bar: barData(site, ctx, scope, req, date), feedUrl: scope.feedUrl ?? `${site.urls(ctx).site}/events.ics` };
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
  const seen = new Set<number>();
  const items = eventItems(site, ctx, seo.events.filter((e) => !seen.has(e.databaseId) && seen.add(e.databaseId)));
  return {
    head: headHtml({ home: urls.home, path: seo.path, title, description, siteName: SITE_NAME, type: 'website', lang: site.lang(ctx), site: urls.site }),
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
