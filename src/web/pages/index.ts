/**
 * The record pages: events (`/event/{slug}/`, `/event/{slug}.ics`), venues and organizers, and
 * WordPress's plain-permalink form of each (`/?post_type=cal_events&p={id}`: records not public yet).
 */
import type { Context } from 'koa';
import type { WpDispatch } from '../../../rest-facade/wp/mount.ts';
import type { Feeds } from '../feeds.ts';
import { createRestGet } from '../rest-call.ts';
import { guarded, type PageRouter, type Site } from '../site.ts';
import { eventPage, type RestEventPage } from './event.ts';
import { placePage, type PlaceKind } from './place.ts';

const POST_TYPES: Record<string, 'events' | PlaceKind> = { cal_events: 'events', cal_venue: 'venues', cal_organizer: 'organizers' };

export function createRecordPages(site: Site, feeds: Feeds, rest: WpDispatch) {
  const restGet = createRestGet(rest);
  const prefix = (ctx: Context) => (site.lang(ctx) === 'en' ? '' : site.lang(ctx));
  const eventBySlug = (ctx: Context, slug: string) => restGet<RestEventPage>(ctx, `/events/by-slug/${encodeURIComponent(slug)}`, undefined, prefix(ctx));

  /** `/?post_type=cal_*&p={id}` (and `/?p={id}`): the record's page; null when the query names no record type of ours. */
  async function byId(ctx: Context): Promise<boolean> {
    const type = Array.isArray(ctx.query.post_type) ? ctx.query.post_type[0] : (ctx.query.post_type ?? 'cal_events');
    const kind = POST_TYPES[type];
    if (!kind) return false;
    const id = String(ctx.query.p ?? '');
    if (!/^\d+$/.test(id)) {
      site.refuse(ctx, 404);
      return true;
    }
    if (kind === 'events') await eventPage(site, feeds, ctx, await restGet<RestEventPage>(ctx, `/events/${id}`, undefined, prefix(ctx)));
    else {
      const answer = await restGet<{ slug: string }>(ctx, `/${kind}/${id}`, undefined, prefix(ctx));
      if (answer.status !== 200) site.refuse(ctx, answer.status);
      else await placePage(site, restGet, ctx, kind, answer.body.slug);
    }
    return true;
  }

  function register(router: PageRouter) {
    router.get(
      '/event/:slug',
      guarded(site, async (ctx) => {
        const slug = ctx.params.slug ?? '';
        if (slug.endsWith('.ics')) return feeds.event(ctx, slug.slice(0, -4), slug);
        return eventPage(site, feeds, ctx, await eventBySlug(ctx, slug));
      }),
    );
    router.get('/venue/:slug', guarded(site, (ctx) => placePage(site, restGet, ctx, 'venues', ctx.params.slug ?? '')));
    router.get('/organizer/:slug', guarded(site, (ctx) => placePage(site, restGet, ctx, 'organizers', ctx.params.slug ?? '')));
  }

  return { register, byId };
}
