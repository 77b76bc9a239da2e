/**
 * iCal feeds (`/events.ics`, `?ical=1` on the home page, the event lists and the archives,
 * `/event/{slug}.ics`): the REST facade's event records run in-process (rest-call.ts), recurring
 * series folded into RRULEs (feed-series.ts), built by ical.ts, with validators (ETag,
 * Last-Modified → 304).
 */
import type { Context } from 'koa';
import type { WpDispatch } from '../../rest-facade/wp/mount.ts';
import type { AppState } from '../services/context.ts';
import { notModified } from '../domain/conditional-get.ts';
import { createFeedSeriesLoader } from './feed-series.ts';
import { EventLockDocument } from './generated/operations.ts';
import { buildCalendar, etagOf, lastModified, type RestEvent } from './ical.ts';
import { createRestGet, type RestAnswer } from './rest-call.ts';
import type { Site } from './site.ts';

/** Most events one feed carries (pages of `CAL_MAX_PER_PAGE` are fetched up to this). */
export const FEED_MAX_EVENTS = 500;

export interface Feeds {
  /** A feed of the REST event list with these filters (the client's query, a term, …). */
  list(ctx: Context, filters: URLSearchParams, name: string, filename: string, apiRoot?: string): Promise<void>;
  /** A feed of one event found by slug (`/event/{slug}.ics`). */
  event(ctx: Context, slug: string, filename: string): Promise<void>;
  /** The feed of events already read (an event page's `?ical=1`). */
  send(ctx: Context, events: RestEvent[], name: string, filename: string, apiRoot?: string): Promise<void>;
}

export function createFeeds(site: Site, rest: WpDispatch): Feeds {
  const restGet = createRestGet(rest);
  const feedSeries = createFeedSeriesLoader(site.executor, site.config.site.maxPerPage);
  const get = <T>(ctx: Context, path: string, query?: URLSearchParams): Promise<RestAnswer<T>> => restGet<T>(ctx, path, query, site.lang(ctx) === 'en' ? '' : site.lang(ctx));

  /** Every event a feed holds: the REST list with the client's filters, page after page up to FEED_MAX_EVENTS. */
  async function feedEvents(ctx: Context, filters: URLSearchParams): Promise<RestAnswer<RestEvent[]>> {
    filters.delete('ical');
    const single = filters.has('page') || filters.has('per_page');
    if (!single) filters.set('per_page', String(site.config.site.maxPerPage));
    const events: RestEvent[] = [];
    for (let pageNo = 1; ; pageNo++) {
      if (!single) filters.set('page', String(pageNo));
      const answer = await get<{ events: RestEvent[]; total_pages: number }>(ctx, '/events', filters);
      if (answer.status === 404 && pageNo > 1) break;
      if (answer.status !== 200) return { ...answer, body: [], status: answer.status, headers: { ...answer.headers, error: JSON.stringify(answer.body) } };
      events.push(...answer.body.events);
      if (single || pageNo >= answer.body.total_pages || events.length >= FEED_MAX_EVENTS) break;
    }
    return { status: 200, body: events.slice(0, FEED_MAX_EVENTS), headers: {} };
  }

  /**
   * Recurring series in a feed: the series data of the listed events, the REST records of overrides
   * not listed (a client expanding the RRULE would show their original slot otherwise) and of series
   * whose listed occurrences are all overrides (the series' own fields).
   */
  async function withSeries(ctx: Context, events: RestEvent[]) {
    const state = ctx.state as AppState;
    const recurrence = await feedSeries(state.cal, events.map((e) => e.id));
    const listed = new Set(events.map((e) => e.id));
    const plainMember = new Set([...recurrence.members].filter(([, m]) => !m.overridden).map(([, m]) => m.seriesId));
    const more: RestEvent[] = [];
    const masters = new Map<number, RestEvent>();
    const record = async (id: number) => {
      const answer = await get<RestEvent>(ctx, `/events/${id}`);
      return answer.status === 200 ? answer.body : null;
    };
    for (const series of recurrence.series.values()) {
      for (const id of series.overrides) {
        if (listed.has(id)) continue;
        const e = await record(id);
        if (e) more.push(e);
      }
      if (!plainMember.has(series.id)) {
        const master = await record(series.id);
        if (master) masters.set(series.id, master);
      }
    }
    if (more.length || masters.size) {
      // The overrides' RECURRENCE-IDs, and the texts of both.
      const extra = await feedSeries(state.cal, [...more.map((e) => e.id), ...masters.keys()]);
      for (const e of more) {
        const m = extra.members.get(e.id);
        if (m) recurrence.members.set(e.id, m);
      }
      for (const [id, t] of extra.texts) recurrence.texts.set(id, t);
    }
    return { events: [...events, ...more], recurrence, masters };
  }

  /** An iCal answer with validators; 304 when the client's copy is current. */
  async function send(ctx: Context, listed: RestEvent[], name: string, filename: string, apiRoot?: string) {
    const urls = site.urls(ctx);
    const { events, recurrence, masters } = await withSeries(ctx, listed);
    const text = buildCalendar(
      events,
      { name, siteTimezone: site.config.site.timezone, host: new URL(urls.site).host, url: urls.home + '/', protectedText: site.t(ctx)('password.feed') },
      recurrence,
      masters,
    );
    const etag = etagOf(text);
    const modified = lastModified(events)?.toUTCString() ?? null;
    ctx.set('ETag', etag);
    if (modified) ctx.set('Last-Modified', modified);
    // Its own 304s go out before the cache policy: they say what it would (policy.ts) of an answer
    // that depended on the post-password cookie.
    const cal = (ctx.state as AppState).cal;
    if (cal?.postPass?.decided) ctx.vary('Cookie');
    ctx.set('Cache-Control', cal?.viewer || (cal?.postPass?.decided && cal.postPass.cookie !== null) ? 'private, no-cache' : 'public, no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    site.discovery(ctx, urls, apiRoot);
    if (notModified(ctx, etag, modified)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.set('Content-Disposition', `inline; filename="${filename}"`);
    ctx.body = text;
  }

  /** A REST error answered to a feed client in the REST error shape. */
  function feedError(ctx: Context, answer: RestAnswer<unknown>) {
    ctx.status = answer.status;
    if (answer.headers['retry-after']) ctx.set('Retry-After', answer.headers['retry-after']);
    if (answer.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="cal-events"');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = answer.headers.error ?? JSON.stringify(answer.body);
  }

  return {
    send,
    async list(ctx, filters, name, filename, apiRoot) {
      const answer = await feedEvents(ctx, filters);
      if (answer.status !== 200) return feedError(ctx, answer);
      await send(ctx, answer.body, name, filename, apiRoot);
    },
    async event(ctx, slug, filename) {
      const answer = await get<RestEvent>(ctx, `/events/by-slug/${encodeURIComponent(slug)}`);
      if (answer.status === 403 && (answer.body as { code?: unknown } | null)?.code === 'event-password-protected') {
        // A protected event the visitor has not opened: TEC's feed still lists it (described as
        // protected), so it is read as the REST lists give such an event, redacted.
        const { event } = await site.run(ctx, EventLockDocument, { slug });
        const listed = event ? await get<{ events: RestEvent[] }>(ctx, '/events', new URLSearchParams({ include: String(event.databaseId) })) : null;
        const record = listed?.status === 200 ? listed.body.events[0] : undefined;
        if (record) return send(ctx, [record], record.title, filename);
      }
      if (answer.status !== 200) return feedError(ctx, answer);
      await send(ctx, [answer.body], answer.body.title, filename);
    },
  };
}
