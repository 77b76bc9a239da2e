/** Venue and organizer pages (`/venue/{slug}/`, `/organizer/{slug}/`, `/?post_type=cal_venue&p={id}`). */
import type { Context } from 'koa';
import { htmlToText } from '../../domain/text.ts';
import { venueAddress, type RestEvent } from '../ical.ts';
import { describeWhen, isoStart } from '../format.ts';
import type { RestGet } from '../rest-call.ts';
import type { Site } from '../site.ts';

interface RestPlace {
  id: number;
  slug: string;
  venue?: string;
  organizer?: string;
  description?: string;
  address?: string;
  city?: string;
  state?: string;
  province?: string;
  zip?: string;
  country?: string;
}

export type PlaceKind = 'venues' | 'organizers';

export async function placePage(site: Site, restGet: RestGet, ctx: Context, kind: PlaceKind, slug: string) {
  const lang = site.lang(ctx);
  const prefix = lang === 'en' ? '' : lang;
  const answer = await restGet<RestPlace>(ctx, `/${kind}/by-slug/${encodeURIComponent(slug)}`, undefined, prefix);
  if (answer.status !== 200) return site.refuse(ctx, answer.status);
  const record = answer.body;
  const filter = kind === 'venues' ? 'venue' : 'organizer';
  const list = await restGet<{ events: (RestEvent & { venue?: { venue?: string } })[] }>(ctx, '/events', new URLSearchParams({ [filter]: String(record.id) }), prefix);
  const urls = site.urls(ctx);
  const name = (kind === 'venues' ? record.venue : record.organizer) ?? '';
  site.render(
    ctx,
    200,
    'place',
    {
      heading: name,
      address: kind === 'venues' ? venueAddress({ ...record, venue: record.venue })?.address : undefined,
      description: record.description,
      events:
        list.status === 200
          ? list.body.events.map((e) => ({
              url: e.url,
              title: e.title,
              when: describeWhen(e.all_day, e.start_date, e.end_date, lang),
              isoStart: isoStart(e.all_day, e.start_date, e.utc_start_date, e.timezone),
              venueName: e.venue && !Array.isArray(e.venue) ? e.venue.venue : undefined,
            }))
          : [],
    },
    { pageTitle: htmlToText(name), apiRoot: `${urls.namespaceRoot}/${kind}/${record.id}` },
  );
}
