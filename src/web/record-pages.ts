/**
 * The record pages: an event (`/event/{slug}/`), a venue (`/venue/{slug}/`), an organizer
 * (`/organizer/{slug}/`), a recurring series (TEC's `/event/{slug}/all/`, and its
 * `/event/{slug}/{YYYY-MM-DD}/` occurrence links), plus `sitemap.xml` and `robots.txt`. Each runs
 * its own named operations (src/web/operations/pages.graphql, typed in
 * src/web/generated/operations.ts) through the executor with the caller's context, so visibility
 * is the core's: a record the caller may not read is a 404.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Context } from 'koa';
import { DateTime, IANAZone } from 'luxon';
import { htmlToText } from '../domain/text.ts';
import type { Feeds } from './feeds.ts';
import {
  EventLockDocument,
  EventPageDocument,
  OrganizerEventsDocument,
  OrganizerPageDocument,
  SeriesPageDocument,
  SitemapCountsDocument,
  SitemapEventsDocument,
  SitemapOrganizersDocument,
  SitemapVenuesDocument,
  VenueEventsDocument,
  VenuePageDocument,
  type PostStatus,
  type RecordEventLineFragment,
  type RecordEventListFragment,
  type RecordOrganizerFragment,
  type RecordVenueFragment,
} from './generated/operations.ts';
import { displayTitle, isoStart, lockedIsoStart } from './format.ts';
import type { PageStrings } from './i18n.ts';
import { postedPassword, setPostPass } from './post-password.ts';
import { activeLoginThrottle } from '../services/throttle.ts';
import { addressLine, eventItemList, eventJsonLd, headHtml, languageAlternates, mapUrl, organizationJsonLd, placeJsonLd, scriptJson, summary, withContext, type JsonLd } from './seo.ts';
import { guarded, type PageRouter, type Site } from './site.ts';
import { addToCalendarLinks } from './subscribe.ts';
import { eventItems } from './views/common.ts';
import { parseSitemapName, robotsTxt, SITEMAP_KINDS, SITEMAP_PAGE_SIZE, sitemapIndexXml, sitemapPages, sitemapPath, sitemapXml, type SitemapEntry, type SitemapKind } from './sitemap.ts';

/** Upcoming events per page of a venue or organizer; next dates on an event page; dates per series page. */
const EVENTS_PER_PAGE = 10;
const NEXT_DATES = 5;
const SERIES_DATES = 20;

/** What a record page tells search engines and link previews. */
interface PageRender {
  pageTitle: string;
  /** Canonical path under the page's home (`/venue/grand-hall/`), language prefix excluded. */
  path: string;
  description: string;
  type: 'website' | 'article';
  image?: { url: string; width: number | null; height: number | null } | null;
  jsonLd?: unknown;
  feedUrl?: string;
  /** rel=prev / rel=next of a paged page (absolute). */
  prev?: string | null;
  next?: string | null;
  apiRoot: string;
}

type Kind = 'cal_events' | 'cal_venue' | 'cal_organizer';

/** What a venue or organizer page reads of its record besides what its view shows. */
interface RecordFields {
  readonly databaseId: number;
  readonly status: PostStatus;
  readonly slug: string | null;
  readonly name: string;
  readonly excerpt: string;
  readonly description: string;
  readonly image: { readonly url: string; readonly width: number | null; readonly height: number | null } | null;
}

/** A kind of record with a page of its own and its upcoming events (recordPage): venues, organizers. */
interface RecordKind<R extends RecordFields, V extends { url: string }> {
  /** The template's `kind` and the feed's filter parameter (`?venue=`). */
  name: 'venue' | 'organizer';
  /** Its REST route (`X-TEC-API-ROOT`). */
  collection: 'venues' | 'organizers';
  postType: Kind;
  /** The record by ID or slug (aliased `record`), and a page of its events (`$record`: its ID). */
  page: TypedDocumentNode<{ readonly record: R | null }, { id?: number | null; slug?: string | null }>;
  events: TypedDocumentNode<{ readonly events: RecordEventListFragment }, { record: number; page: number; perPage: number }>;
  /** What the page shows of the record. */
  view(ctx: Context, record: R): V;
  /** Its schema.org node (seo.ts). */
  jsonLd(record: R, url: string, site: string): JsonLd;
  /** The meta description when the record has neither excerpt nor description. */
  fallbackDescription?: (view: V) => string;
}

const BASE: Record<Kind, string> = { cal_events: 'event', cal_venue: 'venue', cal_organizer: 'organizer' };

/** The public path of a record under its home, as the REST `url` builds it. */
export function recordPath(kind: Kind, record: { databaseId: number; status: PostStatus; slug: string | null }): string {
  if ((record.status === 'PUBLISH' || record.status === 'PRIVATE') && record.slug) return `/${BASE[kind]}/${record.slug}/`;
  return `/?post_type=${kind}&p=${record.databaseId}`;
}

/** The page number of `?page=` (1 when absent); null when malformed. */
function pageParam(ctx: Context): number | null {
  const raw = ctx.query.page;
  if (raw === undefined) return 1;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,5}$/.test(raw)) return null;
  return Number(raw);
}

/** "Saturday 13 March 2027, 19:00 – 22:00" in the page's language. */
export function whenText(e: Pick<RecordEventLineFragment, 'startDate' | 'endDate' | 'allDay'>, lang: string, t: PageStrings): string {
  const start = DateTime.fromSQL(e.startDate).setLocale(lang);
  const end = DateTime.fromSQL(e.endDate).setLocale(lang);
  const day = (d: DateTime) => d.toLocaleString(DateTime.DATE_HUGE);
  const time = (d: DateTime) => d.toLocaleString(DateTime.TIME_SIMPLE);
  if (e.allDay) return start.hasSame(end, 'day') ? `${day(start)} (${t('event.allDay').toLowerCase()})` : `${day(start)} – ${day(end)}`;
  if (start.hasSame(end, 'day')) return `${day(start)}, ${time(start)} – ${time(end)}`;
  return `${day(start)}, ${time(start)} – ${day(end)}, ${time(end)}`;
}

export function createRecordPages(site: Site, feeds: Feeds) {
  const config = site.config;
  const home = (ctx: Context) => site.urls(ctx).home;
  const langOf = (ctx: Context) => site.lang(ctx);
  const ops = { run: site.run };
  const deps = {
    urlsOf: (ctx: Context) => site.urls(ctx),
    notFound: (ctx: Context) => site.refuse(ctx, 404),
    now: site.now,
    eventFeed: async (ctx: Context, e: { slug: string | null; databaseId: number }) => {
      if (e.slug) return feeds.event(ctx, e.slug, `${e.slug}.ics`);
      return site.refuse(ctx, 404);
    },
    /** The view in the layout, with canonical, language alternates, meta and JSON-LD in the head. */
    render(ctx: Context, view: string, data: Record<string, unknown>, head: PageRender) {
      const urls = site.urls(ctx);
      site.render(ctx, 200, view, data, {
        pageTitle: head.pageTitle,
        feedUrl: head.feedUrl,
        jsonLd: head.jsonLd ? scriptJson(head.jsonLd) : undefined,
        prev: head.prev ?? undefined,
        next: head.next ?? undefined,
        apiRoot: head.apiRoot,
        head: headHtml({ home: urls.home, path: head.path, title: head.pageTitle, description: head.description, siteName: site.name, type: head.type, lang: langOf(ctx), image: head.image, site: urls.site }),
      });
    },
  };

  // A locked event (a password the visitor has not given) shows its title and day only, as TEC's lists do.
  const lines = (ctx: Context, events: readonly RecordEventLineFragment[]) => {
    const lang = langOf(ctx);
    const t = site.t(ctx);
    return events.map((e) => {
      const venue = e.locked ? undefined : e.venues[0];
      return {
        url: home(ctx) + recordPath('cal_events', e),
        title: displayTitle(e, t),
        when: e.locked ? '' : whenText(e, lang, t),
        isoStart: e.locked ? lockedIsoStart(e.startDate) : isoStart(e.allDay, e.startDate, e.startsAt, e.timezone),
        venueName: venue ? htmlToText(venue.name) : undefined,
        image: e.locked ? null : e.image,
      };
    });
  };

  /** Prev/next links of a paged list of events (`?page=N`). */
  const paging = (ctx: Context, path: string, list: RecordEventListFragment) => {
    const at = (n: number) => `${home(ctx)}${path}${n > 1 ? `?page=${n}` : ''}`;
    return {
      prev: list.page > 1 ? at(list.page - 1) : null,
      next: list.page < list.totalPages ? at(list.page + 1) : null,
      page: list.page,
      totalPages: list.totalPages,
      total: list.totalCount,
    };
  };

  const venueView = (ctx: Context, v: RecordVenueFragment) => {
    const url = home(ctx) + recordPath('cal_venue', v);
    return {
      name: v.name,
      url,
      address: addressLine(v),
      mapUrl: v.showMapLink ? mapUrl(v) : null,
      phone: v.phone,
      website: v.website,
      description: v.locked ? '' : v.description,
      image: v.image,
    };
  };
  const organizerView = (ctx: Context, o: RecordOrganizerFragment) => ({
    name: o.name,
    url: home(ctx) + recordPath('cal_organizer', o),
    phone: o.phone,
    website: o.website,
    email: o.email,
    description: o.locked ? '' : o.description,
    image: o.image,
  });

  /**
   * A venue's or an organizer's page: the record (by slug, or by ID for the plain-permalink form),
   * every field it shows (the kind's view), its upcoming events page by page (`?page=N`, rel=prev/next),
   * its JSON-LD (`Place` / `Organization`) and its events' iCal feed.
   */
  async function recordPage<R extends RecordFields, V extends { url: string }>(ctx: Context, by: { id?: number; slug?: string }, kind: RecordKind<R, V>) {
    const pageNo = pageParam(ctx);
    const { record } = await ops.run(ctx, kind.page, by);
    if (!record || pageNo === null) return deps.notFound(ctx);
    const { events } = await ops.run(ctx, kind.events, { record: record.databaseId, page: pageNo, perPage: EVENTS_PER_PAGE });
    if (pageNo > 1 && pageNo > events.totalPages) return deps.notFound(ctx);
    const urls = deps.urlsOf(ctx);
    const path = recordPath(kind.postType, record);
    const view = kind.view(ctx, record);
    const pages = paging(ctx, path, events);
    deps.render(
      ctx,
      'record',
      { kind: kind.name, record: view, events: lines(ctx, events.nodes), pages },
      {
        pageTitle: htmlToText(record.name),
        path,
        description: summary(record.excerpt || record.description) || (kind.fallbackDescription?.(view) ?? ''),
        type: 'article',
        image: record.image,
        jsonLd: withContext(kind.jsonLd(record, view.url, urls.site)),
        feedUrl: `${urls.site}/events.ics?${kind.name}=${record.databaseId}`,
        prev: pages.prev,
        next: pages.next,
        apiRoot: `${urls.namespaceRoot}/${kind.collection}/${record.databaseId}`,
      },
    );
  }

  const VENUE: RecordKind<RecordVenueFragment, ReturnType<typeof venueView>> = {
    name: 'venue',
    collection: 'venues',
    postType: 'cal_venue',
    page: VenuePageDocument,
    events: VenueEventsDocument,
    view: venueView,
    jsonLd: placeJsonLd,
    fallbackDescription: (view) => view.address,
  };
  const ORGANIZER: RecordKind<RecordOrganizerFragment, ReturnType<typeof organizerView>> = {
    name: 'organizer',
    collection: 'organizers',
    postType: 'cal_organizer',
    page: OrganizerPageDocument,
    events: OrganizerEventsDocument,
    view: organizerView,
    jsonLd: organizationJsonLd,
  };
  const venuePage = (ctx: Context, by: { id?: number; slug?: string }) => recordPage(ctx, by, VENUE);
  const organizerPage = (ctx: Context, by: { id?: number; slug?: string }) => recordPage(ctx, by, ORGANIZER);

  /** Today in the site's zone, `YYYY-MM-DD` (series' next dates start there). */
  const today = () => DateTime.fromJSDate(deps.now?.() ?? new Date()).setZone(config.site.timezone).toISODate() ?? '1970-01-01';

  /**
   * A protected event the visitor has not opened: its title and WordPress's password form only
   * (TEC's single page), which posts back to the page (eventPassword). No schedule, venue,
   * organizer, cost, image, description, JSON-LD or calendar links, in the page or its head.
   */
  function protectedPage(ctx: Context, e: { databaseId: number; status: PostStatus; slug: string | null; title: string }, status: number, invalid: boolean) {
    const t = site.t(ctx);
    const path = recordPath('cal_events', e);
    const title = displayTitle({ title: e.title, hasPassword: true }, t);
    deps.render(
      ctx,
      'event-protected',
      { title, action: home(ctx) + path, id: e.databaseId, invalid },
      {
        pageTitle: htmlToText(title),
        path,
        description: t('password.text'),
        type: 'article',
        apiRoot: `${deps.urlsOf(ctx).namespaceRoot}/events/${e.databaseId}`,
      },
    );
    ctx.status = status;
  }

  /**
   * The password form's post (`post_password`, urlencoded, from this site's own page): the right
   * password sets WordPress's post-password cookie and leads back to the page (303), which then
   * shows everything; a wrong one shows the form again saying so (403). Guesses count against the
   * sign-in throttle of the address, per event.
   */
  async function eventPassword(ctx: Context, by: { id?: number; slug?: string }) {
    const t = site.t(ctx);
    if (!site.sameOrigin(ctx)) {
      ctx.req.resume();
      return formRefusal(ctx, 403, t('password.crossSite'));
    }
    const posted = await postedPassword(ctx);
    if ('status' in posted) return formRefusal(ctx, posted.status, t('password.badForm'));
    const throttle = activeLoginThrottle();
    const attempt = { login: `post-password:${by.id ?? by.slug}`, ip: ctx.ip };
    const verdict = await throttle.check(attempt);
    if (verdict) {
      ctx.set('Retry-After', String(verdict.retryAfter));
      return site.refuse(ctx, 429);
    }
    const { event } = await ops.run(ctx, EventLockDocument, by, { password: posted.password });
    if (!event) return deps.notFound(ctx);
    const page = home(ctx) + recordPath('cal_events', event);
    if (!event.hasPassword) return seeOther(ctx, page);
    if (event.locked) {
      await throttle.fail(attempt);
      return protectedPage(ctx, event, 403, true);
    }
    await throttle.succeed(attempt);
    setPostPass(ctx, deps.urlsOf(ctx), posted.password);
    seeOther(ctx, page);
  }

  /** A password post refused before any password was read (cross-site, not a form, too large). */
  function formRefusal(ctx: Context, status: number, message: string) {
    const t = site.t(ctx);
    const heading = status === 403 ? t('error.forbidden') : t('error.other');
    site.render(ctx, status, 'error', { heading, message }, { pageTitle: heading });
  }

  function seeOther(ctx: Context, to: string) {
    ctx.status = 303;
    ctx.redirect(to);
  }

  async function eventPage(ctx: Context, by: { id?: number; slug?: string }) {
    const lang = langOf(ctx);
    const t = site.t(ctx);
    const { event: e } = await ops.run(ctx, EventPageDocument, { ...by, lang });
    if (!e) return deps.notFound(ctx);
    if (ctx.query.ical !== undefined) return deps.eventFeed(ctx, e);
    if (e.locked) return protectedPage(ctx, e, 200, false);
    const title = displayTitle(e, t);
    const urls = deps.urlsOf(ctx);
    const path = recordPath('cal_events', e);
    const url = home(ctx) + path;
    const venues = e.venues.map((v) => venueView(ctx, v));
    const organizers = e.organizers.map((o) => organizerView(ctx, o));
    // The series' dates after this occurrence (from today when it is past).
    const from = [today(), e.startDate.slice(0, 10)].sort()[1]!;
    const dates = e.series?.recurrence ? (await ops.run(ctx, SeriesPageDocument, { id: e.databaseId, lang, from, first: NEXT_DATES + 1 })).event?.series?.occurrences : undefined;
    const series = e.series?.recurrence
      ? {
          text: e.series.recurrence.text,
          url: e.series.slug ? `${home(ctx)}/event/${e.series.slug}/all/` : home(ctx) + recordPath('cal_events', e.series),
          next: lines(ctx, (dates ?? []).filter((o) => o.databaseId !== e.databaseId).slice(0, NEXT_DATES)),
        }
      : null;
    const event = eventJsonLd({ ...e, title }, {
      url,
      site: urls.site,
      currencyCode: config.site.currencyCode,
      venue: e.venues[0] ? { venue: e.venues[0], url: venues[0]!.url } : null,
      organizer: e.organizers[0] ? { organizer: e.organizers[0], url: organizers[0]!.url } : null,
    });
    // Google and Outlook need a zone they know: an offset label (`UTC+5`) gives UTC times instead.
    const iana = IANAZone.isValidZone(e.timezone);
    const utcWall = (iso: string) => iso.slice(0, 19).replace('T', ' ');
    const venue = e.venues[0];
    const addToCalendar = addToCalendarLinks(
      {
        title,
        description: e.locked ? '' : e.description,
        allDay: e.allDay,
        start: iana || e.allDay ? e.startDate : utcWall(e.startsAt),
        end: iana || e.allDay ? e.endDate : utcWall(e.endsAt),
        zone: iana ? e.timezone : 'UTC',
        location: venue ? [htmlToText(venue.name), addressLine(venue)].filter(Boolean).join(', ') : '',
        url,
        home: `${urls.home}/`,
      },
      t,
    );
    deps.render(
      ctx,
      'event',
      {
        e: {
          ...e,
          title,
          description: e.locked ? '' : e.description,
          categories: e.categories.map((c) => ({ name: c.name, url: `${home(ctx)}/events/category/${c.path.join('/')}/` })),
          tags: e.tags.map((c) => ({ name: c.name, url: `${home(ctx)}/tag/${c.slug}/` })),
        },
        when: whenText(e, lang, t),
        isoStart: isoStart(e.allDay, e.startDate, e.startsAt, e.timezone),
        venues,
        organizers,
        series,
        addToCalendar,
      },
      {
        pageTitle: htmlToText(title),
        path,
        description: summary(e.excerpt || e.description) || whenText(e, lang, t),
        type: 'article',
        image: e.image,
        jsonLd: withContext(event),
        feedUrl: `${url}${url.includes('?') ? '&' : '?'}ical=1`,
        apiRoot: `${urls.namespaceRoot}/events/${e.databaseId}`,
      },
    );
  }

  /** TEC's `/event/{slug}/all/`: the series, its schedule in words and its dates from today (`?from=YYYY-MM-DD` pages on). */
  async function seriesPage(ctx: Context, slug: string) {
    const lang = langOf(ctx);
    const fromParam = typeof ctx.query.from === 'string' ? ctx.query.from : '';
    if (fromParam && !/^\d{4}-\d{2}-\d{2}$/.test(fromParam)) return deps.notFound(ctx);
    const from = fromParam || today();
    const { event } = await ops.run(ctx, SeriesPageDocument, { slug, lang, from, first: SERIES_DATES + 1 });
    const series = event?.series;
    if (!event || !series?.recurrence) {
      // A single event has no series: its page is the event's.
      if (event && event.slug === slug) return redirect(ctx, `${home(ctx)}${recordPath('cal_events', event)}`);
      return deps.notFound(ctx);
    }
    if (series.slug && series.slug !== slug) return redirect(ctx, `${home(ctx)}/event/${series.slug}/all/`);
    const dates = series.occurrences.slice(0, SERIES_DATES);
    const more = series.occurrences[SERIES_DATES];
    const path = `/event/${series.slug ?? slug}/all/`;
    const nextUrl = more ? `${home(ctx)}${path}?from=${more.startDate.slice(0, 10)}` : null;
    const url = home(ctx) + path;
    const canonicalPath = fromParam ? `${path}?from=${fromParam}` : path;
    // A protected series the visitor has not opened: its title and dates only (each date as its own event reads).
    const shut = series.locked;
    const title = displayTitle(series, site.t(ctx));
    // The dates the page lists, each the Event of its page (as a calendar view's ItemList).
    const items = eventItems(site, ctx, dates.filter((d) => !d.locked));
    deps.render(
      ctx,
      'series',
      {
        series: { ...series, title, image: shut ? null : series.image, url: home(ctx) + recordPath('cal_events', series), text: shut ? '' : series.recurrence.text },
        events: lines(ctx, dates),
        nextUrl,
        firstUrl: fromParam ? url : null,
      },
      {
        pageTitle: `${htmlToText(title)} · ${site.t(ctx)('record.series')}`,
        path: canonicalPath,
        description: shut ? site.t(ctx)('password.text') : `${series.recurrence.text}. ${summary(series.excerpt || series.description, 150)}`.trim(),
        type: 'article',
        image: shut ? null : series.image,
        jsonLd: eventItemList({ name: htmlToText(title), url: home(ctx) + canonicalPath }, items),
        feedUrl: `${deps.urlsOf(ctx).site}/event/${series.slug ?? slug}.ics`,
        next: nextUrl,
        apiRoot: `${deps.urlsOf(ctx).namespaceRoot}/events/${series.databaseId}`,
      },
    );
  }

  /** TEC's `/event/{slug}/{YYYY-MM-DD}/`: the occurrence of that series on that day (a redirect to its page). */
  async function occurrenceOn(ctx: Context, slug: string, date: string) {
    const { event } = await ops.run(ctx, SeriesPageDocument, { slug, lang: 'en', from: date, first: 1 });
    const hit = event?.series?.occurrences[0];
    if (!hit || hit.startDate.slice(0, 10) !== date) return deps.notFound(ctx);
    return redirect(ctx, home(ctx) + recordPath('cal_events', hit));
  }

  function redirect(ctx: Context, to: string) {
    ctx.status = 301;
    ctx.redirect(to);
  }

  // ── sitemap ──────────────────────────────────────────────────────────────────────────────
  const FETCH_PAGE = config.site.maxPerPage;

  async function sitemapEntries(ctx: Context, kind: SitemapKind, page: number): Promise<SitemapEntry[]> {
    const entries: SitemapEntry[] = [];
    const first = (page - 1) * SITEMAP_PAGE_SIZE;
    const site = deps.urlsOf(ctx).site;
    for (let offset = first; offset < first + SITEMAP_PAGE_SIZE; offset += FETCH_PAGE) {
      const vars = { page: Math.floor(offset / FETCH_PAGE) + 1, perPage: FETCH_PAGE };
      const nodes =
        kind === 'events'
          ? (await ops.run(ctx, SitemapEventsDocument, vars)).events.nodes.map((n) => ({ n, path: recordPath('cal_events', n) }))
          : kind === 'venues'
            ? (await ops.run(ctx, SitemapVenuesDocument, vars)).venues.nodes.map((n) => ({ n, path: recordPath('cal_venue', n) }))
            : (await ops.run(ctx, SitemapOrganizersDocument, vars)).organizers.nodes.map((n) => ({ n, path: recordPath('cal_organizer', n) }));
      for (const { n, path } of nodes) {
        // WordPress's own sitemaps leave password-protected posts out (`has_password => false`).
        if (n.status !== 'PUBLISH' || ('hasPassword' in n && n.hasPassword)) continue;
        entries.push({ loc: site + path, lastmod: n.modifiedAt, alternates: languageAlternates(site, path) });
      }
      if (nodes.length < FETCH_PAGE) break;
    }
    return entries;
  }

  /** The main views, in every language. */
  function mainEntries(ctx: Context): SitemapEntry[] {
    const site = deps.urlsOf(ctx).site;
    return ['/', '/events/', '/events/list/', '/events/month/', '/events/today/'].map((path) => ({ loc: site + path, alternates: languageAlternates(site, path) }));
  }

  function sendXml(ctx: Context, body: string) {
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = body;
  }

  async function sitemapIndex(ctx: Context) {
    const counts = await ops.run(ctx, SitemapCountsDocument, {});
    const site = deps.urlsOf(ctx).site;
    const totals: Record<SitemapKind, number> = { events: counts.events.totalCount, venues: counts.venues.totalCount, organizers: counts.organizers.totalCount };
    const files: SitemapEntry[] = [{ loc: site + sitemapPath('main') }];
    for (const kind of SITEMAP_KINDS) for (let p = 1; p <= sitemapPages(totals[kind]); p++) files.push({ loc: site + sitemapPath(kind, p) });
    sendXml(ctx, sitemapIndexXml(files));
  }

  async function sitemapFile(ctx: Context, name: string) {
    const parsed = parseSitemapName(name);
    if (!parsed) return deps.notFound(ctx);
    if (parsed.kind === 'main') return sendXml(ctx, sitemapXml(mainEntries(ctx)));
    const entries = await sitemapEntries(ctx, parsed.kind, parsed.page);
    if (!entries.length && parsed.page > 1) return deps.notFound(ctx);
    sendXml(ctx, sitemapXml(entries));
  }

  /** Registers the routes (language prefixes are stripped before the router, see routes.ts). */
  function register(router: PageRouter) {
    router.get(
      '/event/:slug',
      guarded(site, (ctx) => {
        const slug = String(ctx.params.slug);
        if (slug.endsWith('.ics')) return feeds.event(ctx, slug.slice(0, -4), slug);
        return eventPage(ctx, { slug });
      }),
    );
    router.post('/event/:slug', guarded(site, (ctx) => eventPassword(ctx, { slug: String(ctx.params.slug) })));
    router.get('/venue/:slug', guarded(site, (ctx) => venuePage(ctx, { slug: String(ctx.params.slug) })));
    router.get('/organizer/:slug', guarded(site, (ctx) => organizerPage(ctx, { slug: String(ctx.params.slug) })));
    router.get('/event/:slug/all', guarded(site, (ctx) => seriesPage(ctx, String(ctx.params.slug))));
    router.get('/event/:slug/:date', (ctx, next) => {
      const date = String(ctx.params.date);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return next();
      return guarded(site, (c) => occurrenceOn(c, String(ctx.params.slug), date))(ctx);
    });
    router.get('/sitemap.xml', guarded(site, (ctx) => sitemapIndex(ctx)));
    router.get('/:name', (ctx, next) => (String(ctx.params.name).startsWith('sitemap-') ? guarded(site, (c) => sitemapFile(c, String(ctx.params.name)))(ctx) : next()));
    router.get('/robots.txt', (ctx) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = robotsTxt(`${deps.urlsOf(ctx).site}/sitemap.xml`);
    });
  }

  return { register, eventPage, eventPassword, venuePage, organizerPage };
}
