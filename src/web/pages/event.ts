/**
 * The event page (`/event/{slug}/`, `/?post_type=cal_events&p={id}` for records not public yet) and
 * its one-event feed (`/event/{slug}.ics`, `?ical=1`).
 */
import type { Context } from 'koa';
import { htmlToText } from '../../domain/text.ts';
import type { Feeds } from '../feeds.ts';
import { venueAddress, type RestEvent } from '../ical.ts';
import { describeWhen, isoStart } from '../format.ts';
import type { RestAnswer } from '../rest-call.ts';
import { scriptJson, type Site } from '../site.ts';

/** The fields of the REST event record this page shows beyond a feed's. */
export interface RestEventPage extends RestEvent {
  slug: string;
  json_ld?: unknown;
  venue?: (RestEvent['venue'] & { url?: string }) | unknown[];
  organizer?: Array<{ organizer?: string; email?: string; url?: string }>;
  categories?: Array<{ name: string; slug: string }>;
  tags?: Array<{ name: string; slug: string }>;
}

export async function eventPage(site: Site, feeds: Feeds, ctx: Context, answer: RestAnswer<RestEventPage>) {
  if (answer.status !== 200) return site.refuse(ctx, answer.status);
  const e = answer.body;
  const urls = site.urls(ctx);
  if (ctx.query.ical !== undefined) return feeds.send(ctx, [e], e.title, `${e.slug || e.id}.ics`);
  const venue = e.venue && !Array.isArray(e.venue) && e.venue.venue ? e.venue : null;
  const categories = (e.categories ?? []).map((c) => ({ name: c.name, url: `${urls.home}/events/category/${c.slug}/` }));
  const tags = (e.tags ?? []).map((c) => ({ name: c.name, url: `${urls.home}/tag/${c.slug}/` }));
  site.render(
    ctx,
    200,
    'event',
    {
      e: { ...e, categories, tags },
      when: describeWhen(e.all_day, e.start_date, e.end_date, site.lang(ctx)),
      isoStart: isoStart(e.all_day, e.start_date, e.utc_start_date, e.timezone),
      venue,
      address: venueAddress(venue ?? undefined)?.address,
      organizers: (e.organizer ?? []).filter((o) => o.organizer),
      icsUrl: e.slug && e.status === 'publish' ? `${urls.site}/event/${e.slug}.ics` : `${e.url}${e.url.includes('?') ? '&' : '?'}ical=1`,
    },
    {
      pageTitle: htmlToText(e.title),
      jsonLd: e.json_ld ? scriptJson(e.json_ld) : undefined,
      feedUrl: `${e.url}${e.url.includes('?') ? '&' : '?'}ical=1`,
      apiRoot: `${urls.namespaceRoot}/events/${e.id}`,
    },
  );
}
