import { describe, expect, it } from 'vitest';
import { seedCalendar, type SeededCalendar } from '../helpers/calendar-seed.ts';
import { useTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let cal: SeededCalendar;
useTestServer(async (server) => {
  s = server;
  cal = await seedCalendar(s);
});

const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!);
const meta = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];
const hrefs = (html: string, cls: string) => [...html.matchAll(new RegExp(`<a[^>]*rel="${cls}"[^>]*href="([^"]+)"|<a[^>]*href="([^"]+)"[^>]*rel="${cls}"`, 'g'))].map((m) => (m[1] ?? m[2])!.replace(/&amp;/g, '&'));
/** The event links of a page's lists (in `<main>`: the header's links are the site's). */
const eventLinks = (html: string) => [...html.slice(html.indexOf('<main')).matchAll(/<li>(?:<img[^>]*>)?<a href="([^"]+)">/g)].map((m) => m[1]!);

describe('venue and organizer pages', () => {
  it('a venue page shows every field, a map link, and its upcoming events paged as the API lists them', async () => {
    const rest = (await s.api(`/venues/${cal.venue.id}`)).body;
    const r = await s.request(`/venue/${cal.venue.slug}/`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('<h1>Grand Hall</h1>');
    for (const text of ['1 Main Street, Springfield, IL 62701, United States', '+1 217 555 0100', 'href="https://grand-hall.example/"', '<strong>historic</strong>']) expect(r.text).toContain(text);
    expect(r.text).toContain('href="https://www.openstreetmap.org/?mlat=39.781700&amp;mlon=-89.650100#map=17/39.781700/-89.650100"');
    expect(r.text).toContain(`<link rel="canonical" href="${rest.url}">`);
    const ld = jsonLd(r.text);
    expect(ld).toMatchObject({ '@type': 'Place', name: 'Grand Hall', telephone: '+1 217 555 0100', address: { streetAddress: '1 Main Street', postalCode: '62701' }, geo: { latitude: 39.7817 } });
    expect(meta(r.text, 'og:title')).toBe('Grand Hall');
    // A plain anonymous GET, cacheable as the API's reads; private for a signed-in visitor.
    expect(r.headers.get('cache-control')).toBe('public, max-age=0');
    expect(r.headers.get('set-cookie')).toBeNull();
    expect((await s.request(`/venue/${cal.venue.slug}/`, { as: 'admin' })).headers.get('cache-control')).toBe('private, no-cache');
    expect(meta(r.text, 'og:url')).toBe(rest.url);

    // Page after page, the same events as GET /events?venue=, and nothing more.
    const seen: string[] = [];
    let path: string | undefined = `/venue/${cal.venue.slug}/`;
    for (let n = 1; path; n++) {
      const page: { status: number; text: string } = await s.request(path);
      expect(page.status, path).toBe(200);
      const api = (await s.api(`/events?venue=${cal.venue.id}&page=${n}`)).body;
      expect(eventLinks(page.text)).toEqual(api.events.map((e: { url: string }) => e.url));
      seen.push(...eventLinks(page.text));
      const next: string | undefined = hrefs(page.text, 'next')[0];
      if (next) expect(hrefs((await s.request(new URL(next).pathname + new URL(next).search)).text, 'prev')[0]).toBe(`${s.base}${path}`);
      path = next ? new URL(next).pathname + new URL(next).search : undefined;
    }
    const total = (await s.api(`/events?venue=${cal.venue.id}`)).body.total as number;
    expect(seen.length).toBe(total);
    expect(total).toBeGreaterThan(10);
    expect((await s.request(`/venue/${cal.venue.slug}/?page=99`)).status).toBe(404);
    expect((await s.request(`/venue/${cal.venue.slug}/?page=x`)).status).toBe(404);
  });

  it('an organizer page shows phone, e-mail, website, its events and Organization JSON-LD; the plain-permalink form too', async () => {
    const r = await s.request(`/organizer/${cal.organizer.slug}/`);
    expect(r.status).toBe(200);
    for (const text of ['<h1>Jazz Society</h1>', 'href="mailto:info@jazz-society.example"', 'href="tel:+12175550199"', 'href="https://jazz-society.example/"', 'Friends of jazz.']) expect(r.text).toContain(text);
    expect(jsonLd(r.text)).toMatchObject({ '@context': 'https://schema.org', '@type': 'Organization', name: 'Jazz Society', email: 'info@jazz-society.example' });
    const api = (await s.api(`/events?organizer=${cal.organizer.id}`)).body;
    expect(eventLinks(r.text)).toEqual(api.events.map((e: { url: string }) => e.url));
    const plain = await s.request(`/?post_type=cal_organizer&p=${cal.organizer.id}`);
    expect(plain.status).toBe(200);
    expect(plain.text).toContain('<h1>Jazz Society</h1>');
  });
});

describe('event and series pages', () => {
  it('an event page: venue and organizer details and links, Event JSON-LD with status, attendance, Place, Organization and offer', async () => {
    const rest = (await s.api(`/events/${cal.single.id}`)).body;
    const r = await s.request(`/event/${cal.single.slug}/`);
    expect(r.status).toBe(200);
    expect(r.text).toContain(`href="${rest.venue.url}"`);
    expect(r.text).toContain(`href="${rest.organizer[0].url}"`);
    expect(r.text).toContain('+1 217 555 0100');
    const ld = jsonLd(r.text);
    expect(ld).toMatchObject({
      '@type': 'Event',
      name: rest.title,
      url: rest.url,
      startDate: rest.json_ld.startDate,
      endDate: rest.json_ld.endDate,
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'Grand Hall' },
      organizer: { '@type': 'Organization', name: 'Jazz Society' },
      offers: { '@type': 'Offer', price: rest.json_ld.offers.price, priceCurrency: 'USD' },
    });
    expect(meta(r.text, 'og:type')).toBe('article');
    expect(meta(r.text, 'twitter:card')).toBe('summary');
    expect(r.text).toContain(`<link rel="alternate" hreflang="fr" href="${s.base}/fr/event/${cal.single.slug}/">`);
  });

  it('an occurrence shows its series schedule in words and the next dates; the series page lists them from today, paged', async () => {
    const occurrences = (await s.api(`/events?search=Tuesday%20Jam&per_page=50`)).body.events as { id: number; url: string; start_date: string }[];
    expect(occurrences.length).toBeGreaterThan(10);
    const second = occurrences[1]!;
    const r = await s.request(new URL(second.url).pathname);
    expect(r.status).toBe(200);
    expect(r.text).toContain('<p class="schedule">every week on Tuesday for 30 times</p>');
    expect(r.text).toContain(occurrences[2]!.url);
    expect(r.text).toContain(`href="${s.base}/event/${cal.series.slug}/all/"`);

    const all = await s.request(`/event/${cal.series.slug}/all/`);
    expect(all.status).toBe(200);
    expect(eventLinks(all.text)).toEqual(occurrences.slice(0, 20).map((o) => o.url));
    // Its JSON-LD: the dates it lists, each the Event its own page describes.
    const list = jsonLd(all.text);
    expect(list).toMatchObject({ '@context': 'https://schema.org', '@type': 'ItemList', url: `${s.base}/event/${cal.series.slug}/all/`, numberOfItems: 20 });
    expect(list.itemListElement.map((i: { url: string }) => i.url)).toEqual(occurrences.slice(0, 20).map((o) => o.url));
    const own = jsonLd((await s.request(new URL(second.url).pathname)).text);
    const item = list.itemListElement[1];
    expect(item).toMatchObject({ '@type': 'ListItem', position: 2, item: { '@type': 'Event', url: second.url } });
    for (const key of ['name', 'startDate', 'endDate', 'eventStatus', 'eventAttendanceMode']) expect(item.item[key], key).toEqual(own[key]);
    expect(item.item.location).toMatchObject({ '@type': own.location['@type'], name: own.location.name, url: own.location.url, address: own.location.address });
    const later = hrefs(all.text, 'next')[0]!;
    expect(later).toContain(`?from=${occurrences[20]!.start_date.slice(0, 10)}`);
    const page2 = await s.request(new URL(later).pathname + new URL(later).search);
    expect(eventLinks(page2.text)[0]).toBe(occurrences[20]!.url);
    // An occurrence's slug leads to its series page too.
    const viaOccurrence = await s.request(`${new URL(second.url).pathname}all/`, { headers: {} });
    expect([200, 301]).toContain(viaOccurrence.status);

    // TEC's occurrence address: /event/{series}/{date}/ → the occurrence's page.
    const date = second.start_date.slice(0, 10);
    const hop = await fetch(`${s.base}/event/${cal.series.slug}/${date}/`, { redirect: 'manual' });
    expect(hop.status).toBe(301);
    expect(hop.headers.get('location')).toBe(second.url);
    expect((await s.request(`/event/${cal.series.slug}/2026-12-02/`)).status).toBe(404);
  });

  it('language variants: page text and the schedule in the page language', async () => {
    const occurrence = (await s.api(`/events?search=Tuesday%20Jam`)).body.events[1];
    const r = await s.request(`/fr${new URL(occurrence.url).pathname}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('<html lang="fr">');
    expect(r.text).toContain('Prochaines dates');
    expect(r.text).toMatch(/<p class="schedule">chaque semaine/);
    expect(meta(r.text, 'og:locale')).toBe('fr_FR');
    const venue = await s.request(`/de/venue/${cal.venue.slug}/`);
    expect(venue.text).toContain('Kommende Veranstaltungen');
    expect(venue.text).toContain(`<link rel="canonical" href="${s.base}/de/venue/${cal.venue.slug}/">`);
  });
});

describe('sitemap and robots', () => {
  it('robots.txt names the sitemap; the index lists files that hold every published event, venue and organizer', async () => {
    const robots = await s.request('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.text).toContain(`Sitemap: ${s.base}/sitemap.xml`);
    const index = await s.request('/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^application\/xml/);
    const files = [...index.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(files).toContain(`${s.base}/sitemap-main.xml`);
    const locs = new Set<string>();
    for (const f of files) {
      const r = await s.request(new URL(f).pathname);
      expect(r.status, f).toBe(200);
      for (const m of r.text.matchAll(/<loc>([^<]+)<\/loc>/g)) locs.add(m[1]!.replace(/&amp;/g, '&'));
    }
    const all = (await s.api('/events?start_date=2000-01-01&per_page=50')).body;
    expect(all.total).toBeGreaterThan(40);
    for (let p = 1; p <= all.total_pages; p++) for (const e of (await s.api(`/events?start_date=2000-01-01&per_page=50&page=${p}`)).body.events) expect(locs.has(e.url), e.url).toBe(true);
    expect(locs.has(`${s.base}/venue/${cal.venue.slug}/`)).toBe(true);
    expect(locs.has(`${s.base}/organizer/${cal.organizer.slug}/`)).toBe(true);
    expect(locs.has(`${s.base}/events/month/`)).toBe(true);
    expect((await s.request('/sitemap-events-9.xml')).status).toBe(404);
  });
});
