/**
 * The record pages: events (`/event/{slug}/`, `/event/{slug}.ics`), venues, organizers and
 * recurring series (record-pages.ts), and WordPress's plain-permalink form of each
 * (`/?post_type=cal_events&p={id}`: records not public yet).
 */
import type { Context } from 'koa';
import type { Feeds } from '../feeds.ts';
import { createRecordPages } from '../record-pages.ts';
import { PageRefusal } from '../page-data.ts';
import { readPostPass } from '../post-password.ts';
import { guarded, type PageRouter, type Site } from '../site.ts';

const POST_TYPES: Record<string, 'events' | 'venues' | 'organizers'> = { cal_events: 'events', cal_venue: 'venues', cal_organizer: 'organizers' };

export function createPages(site: Site, feeds: Feeds) {
  const records = createRecordPages(site, feeds);

  /** `/?post_type=cal_*&p={id}` (and `/?p={id}`): the record's page; false when the query names no record type of ours. */
  async function byId(ctx: Context): Promise<boolean> {
    const type = Array.isArray(ctx.query.post_type) ? ctx.query.post_type[0] : (ctx.query.post_type ?? 'cal_events');
    const kind = type === undefined ? undefined : POST_TYPES[type];
    if (!kind) return false;
    const id = String(ctx.query.p ?? '');
    if (!/^\d{1,9}$/.test(id)) {
      site.refuse(ctx, 404);
      return true;
    }
    readPostPass(ctx, site.urls(ctx));
    try {
      if (kind === 'events') await records.eventPage(ctx, { id: Number(id) });
      else if (kind === 'venues') await records.venuePage(ctx, { id: Number(id) });
      else await records.organizerPage(ctx, { id: Number(id) });
    } catch (error) {
      if (!(error instanceof PageRefusal)) throw error;
      site.refuse(ctx, error.status, error.message);
    }
    return true;
  }

  function register(router: PageRouter) {
    records.register(router);
    // The password form of an event shown by ID (`/?post_type=cal_events&p={id}`) posts there.
    router.post('/', (ctx, next) => {
      if (Object.keys(ctx.query).some((k) => k === 'rest_route' || k.startsWith('rest_route['))) return next();
      const type = ctx.query.post_type ?? 'cal_events';
      const id = String(ctx.query.p ?? '');
      if (type !== 'cal_events' || !/^\d{1,9}$/.test(id)) return next();
      return guarded(site, (c) => records.eventPassword(c, { id: Number(id) }))(ctx);
    });
  }

  return { register, byId };
}
