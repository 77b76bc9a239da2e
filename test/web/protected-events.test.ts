/**
 * A password-protected event on the public pages and feeds, beside TEC 6.2.6's recorded answers to
 * a visitor without the password (test/fixtures/samples/source/): the single page is its title and
 * WordPress's password form; the views title it `Protected: …` and show its day only; the feeds
 * describe it as protected. The right password sets WordPress's post-password cookie, which opens
 * everything, privately; a wrong one says so.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashPostPassword } from '../../src/domain/phpass.ts';
import { useTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';

const source = (name: string) => readFileSync(new URL(`../fixtures/samples/source/${name}`, import.meta.url), 'utf8');
const PASSWORD = 'tecbench-secret';
const TITLE = 'Special Password Protected Event';

let s: TestServer;
let event: { id: number; slug: string; url: string };
let open: { id: number; url: string };
let cookieName: string;

/** The recorded protected event (the wp/v2 answer's fields), its venue, organizer and terms; an open event the same day. */
useTestServer(async (server) => {
  s = server;
  const venue = await s.create('/venues', { venue: 'Seed Venue 0', address: '0 Main St', city: 'Springfield', zip: '12345', country: 'US' });
  const organizer = await s.create('/organizers', { organizer: 'Seed Organizer 0', email: 'o0@example.org', phone: '+1 555 0100' });
  const e = await s.create('/events', {
    title: TITLE,
    description: 'The secret programme.',
    start_date: '2027-04-08 10:00:00',
    end_date: '2027-04-08 12:00:00',
    cost: '10',
    venue: venue.id,
    organizer: [organizer.id],
    categories: ['Seed Category 0'],
    tags: ['seed-tag-0'],
  });
  const o = await s.create('/events', { title: 'Open Rehearsal', start_date: '2027-04-08 14:00:00', end_date: '2027-04-08 15:00:00', venue: { venue: 'Rehearsal Room' } });
  // As the WordPress import brings it over (the API sets no post password).
  const recorded = JSON.parse(source('GET_wp-v2_tribe_events_id_context_edit_protected.json')) as { response: { body: { password: string } } };
  await s.db.prisma.event.update({ where: { id: e.id }, data: { password: recorded.response.body.password } });
  s.cache.clear();
  event = { id: e.id, slug: e.slug, url: e.url };
  open = { id: o.id, url: o.url };
  cookieName = `wp-postpass_${createHash('md5').update(s.base).digest('hex')}`;
});

const path = (url: string) => new URL(url).pathname + new URL(url).search;
const main = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: s.base, ...headers },
  body: new URLSearchParams(fields).toString(),
});
/** The cookie the right password set, as a browser sends it back. */
async function unlock(): Promise<string> {
  const r = await s.request(path(event.url), form({ post_password: PASSWORD, Submit: 'Enter' }));
  expect(r.status).toBe(303);
  return r.headers.get('set-cookie')!.split(';')[0]!;
}
/** What a page shows of the event's details, and must not while it is locked. */
const DETAILS = ['Seed Venue 0', '0 Main St', 'Seed Organizer 0', 'o0@example.org', '+1 555 0100', '$10', 'The secret programme', '10:00', 'calendar-links', 'application/ld+json'];
const hides = (html: string, where: string) => {
  // The day view's time separators stay, as TEC's do (they order the day, as its date tags do a list).
  const shown = main(html).replace(/<h2 class="separator">[^<]*<\/h2>/g, '');
  for (const text of DETAILS.filter((d) => d !== 'calendar-links' && d !== 'application/ld+json')) expect(shown, `${where}: ${text}`).not.toContain(text);
};

/** The form's parts that matter, from WordPress's markup or ours. */
function formParts(html: string) {
  const f = /<form[^>]*class="post-password-form[^"]*"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  expect(f, 'a post-password-form').not.toBeNull();
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
  const inputs = [...f![1]!.matchAll(/<input[^>]*>/g)].map((m) => ({ name: attr(m[0], 'name'), type: attr(m[0], 'type'), size: attr(m[0], 'size'), value: attr(m[0], 'value') }));
  return {
    method: attr(f![0], 'method'),
    text: /<p>([^<]+)<\/p>/.exec(f![1]!)![1],
    label: /<label[^>]*>([^<]+)</.exec(f![1]!)![1]!.trim(),
    labelled: new RegExp(`<label for="${attr(/<input[^>]*type="password"[^>]*>/.exec(f![1]!)![0], 'id')}"`).test(f![1]!),
    inputs,
  };
}

function vevent(ics: string, summary: string): Map<string, string> {
  const unfolded = ics.replace(/\r?\n[ \t]/g, '');
  const block = unfolded.split(/BEGIN:VEVENT\r?\n/).slice(1).map((b) => b.split(/\r?\nEND:VEVENT/)[0]!).find((b) => b.includes(`SUMMARY:${summary}`));
  expect(block, summary).toBeDefined();
  return new Map(block!.split(/\r?\n/).map((line) => [line.slice(0, line.indexOf(':')).split(';')[0]!, line] as [string, string]));
}

describe('a protected event, without the password', () => {
  it('its page is the title and WordPress\'s password form only, as TEC\'s', async () => {
    const r = await s.request(path(event.url));
    expect(r.status).toBe(200);
    expect(r.text).toContain(`<title>Protected: ${TITLE} · cal-events</title>`);
    expect(main(r.text)).toContain(`<h1>Protected: ${TITLE}</h1>`);
    hides(r.text, 'page');
    for (const d of DETAILS) expect(r.text, d).not.toContain(d);
    expect(r.text).not.toContain('og:image');
    expect(r.text).not.toMatch(/April|2027/);
    const ours = formParts(r.text);
    const tec = formParts(source('GET_event_protected_page_main.html'));
    expect(ours).toEqual({ ...tec, inputs: tec.inputs });
    expect(/<form action="([^"]+)"/.exec(r.text)![1]).toBe(event.url);
    // The same answer for every visitor without the cookie: shared, but keyed on the cookie.
    expect(r.headers.get('cache-control')).toBe('public, max-age=0');
    expect(r.headers.get('vary')).toMatch(/Cookie/);
    expect(r.headers.get('set-cookie')).toBeNull();
  });

  it('the views title it "Protected: …" and show its day only, as TEC\'s list row; no JSON-LD for it', async () => {
    const tecRow = source('GET_events_list_protected_row.html');
    const tecTitle = />\s*(Protected: [^<]+?)\s*<\/a>/.exec(tecRow)![1];
    expect(tecTitle).toBe(`Protected: ${TITLE}`);
    const views = ['/events/list/?tribe-bar-date=2027-04-01', '/events/2027-04/', '/events/2027-04-08/', '/events/category/seed-category-0/list/?tribe-bar-date=2027-04-01'];
    for (const view of views) {
      const r = await s.request(view);
      expect(r.status, view).toBe(200);
      const html = main(r.text);
      const withOpen = !view.includes('category');
      expect(html, view).toContain(`>${tecTitle}</a>`);
      if (withOpen) expect(html, view).toContain('Open Rehearsal');
      hides(r.text, view);
      const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(r.text)![1]!) as { itemListElement?: { url: string }[] };
      expect((ld.itemListElement ?? []).map((i) => i.url), view).toEqual(withOpen ? [open.url] : []);
      expect(r.headers.get('vary'), view).toMatch(/Cookie/);
    }
    // The list row keeps TEC's date tag (weekday and day), and no time.
    const list = main((await s.request('/events/list/?tribe-bar-date=2027-04-01')).text);
    const row = list.slice(list.lastIndexOf('<article', list.indexOf(`Protected: ${TITLE}`)), list.indexOf('</article>', list.indexOf(`Protected: ${TITLE}`)));
    expect(row).toContain('datetime="2027-04-08"');
    expect(row).toMatch(/<span class="weekday">Thu<\/span> <span class="daynum">8<\/span>/);
    expect(row).not.toContain('class="when"');
  });

  it('a protected series\' page: its title, and no schedule, image or description', async () => {
    const made = await s.graphql<{ createEvent: { event: { databaseId: number; slug: string } } }>(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId slug } } ... on Error { code message } } }`,
      { input: { title: 'Closed Rehearsals', description: 'Stage door code 1234.', startDate: '2027-05-04 19:00:00', endDate: '2027-05-04 21:00:00', timezone: 'America/New_York', recurrence: { rule: 'FREQ=WEEKLY;COUNT=4' } } },
      'admin',
    );
    const series = made.data!.createEvent.event;
    await s.db.prisma.event.update({ where: { id: series.databaseId }, data: { password: PASSWORD } });
    s.cache.clear();
    const r = await s.request(`/event/${series.slug}/all/`);
    expect(r.status).toBe(200);
    expect(r.text).toContain(`<title>Protected: Closed Rehearsals · Recurring event · cal-events</title>`);
    expect(main(r.text)).toContain('>Protected: Closed Rehearsals</a></h1>');
    expect(main(r.text)).not.toContain('class="schedule"');
    expect(r.text).not.toMatch(/every week|Stage door/);
  });

  it('the sitemap leaves it out, as WordPress\'s sitemaps do', async () => {
    const sitemap = await s.request('/sitemap-events-1.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.text).toContain(`<loc>${open.url}</loc>`);
    expect(sitemap.text).not.toContain(event.url);
  });

  it('venue and organizer pages list it the same way', async () => {
    for (const page of ['/venue/seed-venue-0/', '/organizer/seed-organizer-0/']) {
      const r = await s.request(page);
      expect(r.status, page).toBe(200);
      const html = main(r.text);
      const item = html.slice(html.indexOf(`Protected: ${TITLE}`) - 200, html.indexOf('</li>', html.indexOf(`Protected: ${TITLE}`)));
      expect(item, page).toContain(`<a href="${event.url}">Protected: ${TITLE}</a>`);
      expect(item, page).not.toMatch(/April|10:00|Seed Venue/);
      expect(item, page).toContain('datetime="2027-04-08"');
    }
  });

  it('the feeds describe it as TEC\'s recorded VEVENT: time, title, place, organizer, categories, "Content is protected."', async () => {
    const tec = vevent(source('GET_events_ical_protected_vevent.ics'), TITLE);
    for (const feed of ['/events.ics?start_date=2027-04-01', `/event/${event.slug}.ics`, `${path(event.url)}?ical=1`]) {
      const r = await s.request(feed);
      expect(r.status, feed).toBe(200);
      const ours = vevent(r.text, TITLE);
      for (const key of ['DTSTART', 'DTEND', 'SUMMARY', 'DESCRIPTION', 'CATEGORIES', 'ORGANIZER']) {
        expect(ours.get(key)?.toUpperCase(), `${feed} ${key}`).toBe(tec.get(key)!.toUpperCase());
      }
      // Our feeds put a line break between a place's name and its address (every event's LOCATION), TEC a comma.
      expect(ours.get('LOCATION')!.replace('\\n', '\\, '), feed).toBe(tec.get('LOCATION'));
      expect(ours.get('URL'), feed).toBe(`URL;VALUE=URI:${event.url}`);
      expect(r.text).not.toContain('secret programme');
    }
    // The open event beside it keeps its description.
    const all = await s.request('/events.ics?start_date=2027-04-01');
    expect(vevent(all.text, 'Open Rehearsal').get('DESCRIPTION')).not.toContain('protected');
    // In the page's language.
    const fr = await s.request('/fr/events.ics?start_date=2027-04-01');
    expect(vevent(fr.text, TITLE).get('DESCRIPTION')).toBe('DESCRIPTION:Le contenu est protégé.');
  });

  it('"Protected:" and the form are translated in every page language', async () => {
    const expected: Record<string, [string, string]> = {
      fr: ['Protégé : ', 'Mot de passe :'],
      de: ['Geschützt: ', 'Passwort:'],
      es: ['Protegido: ', 'Contraseña:'],
      it: ['Protetto: ', 'Password:'],
      nl: ['Beschermd: ', 'Wachtwoord:'],
      pt: ['Protegido: ', 'Palavra-passe:'],
      pl: ['Zabezpieczone hasłem: ', 'Hasło:'],
    };
    for (const [lang, [prefix, label]] of Object.entries(expected)) {
      const r = await s.request(`/${lang}${path(event.url)}`);
      expect(r.status, lang).toBe(200);
      expect(r.text, lang).toContain(`<title>${prefix}${TITLE} · cal-events</title>`);
      expect(formParts(r.text).label, lang).toBe(label);
      expect(/<form action="([^"]+)"/.exec(r.text)![1], lang).toBe(`${s.base}/${lang}${path(event.url)}`);
      expect(main((await s.request(`/${lang}/events/2027-04-08/`)).text), lang).toContain(`>${prefix}${TITLE}</a>`);
    }
  });
});

describe('the password form', () => {
  it('a wrong password says so, sets no cookie and opens nothing', async () => {
    const r = await s.request(path(event.url), form({ post_password: 'wrong', Submit: 'Enter' }));
    expect(r.status).toBe(403);
    expect(r.headers.get('set-cookie')).toBeNull();
    expect(main(r.text)).toContain('<div class="post-password-form-invalid-password" role="alert"><p id="error-pwbox-');
    expect(main(r.text)).toContain('Invalid password.');
    expect(r.text).toMatch(/aria-describedby="error-pwbox-\d+"/);
    hides(r.text, 'wrong password');
    const empty = await s.request(path(event.url), form({}));
    expect([empty.status, empty.headers.get('set-cookie')]).toEqual([403, null]);
  });

  it('the right one sets WordPress\'s cookie (the password\'s phpass hash, ten days) and leads back to the page', async () => {
    const r = await s.request(path(event.url), form({ post_password: PASSWORD, Submit: 'Enter' }));
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(event.url);
    const set = r.headers.get('set-cookie')!;
    const [pair, ...attributes] = set.split(/;\s*/);
    const [name, value] = pair!.split('=');
    expect(name).toBe(cookieName);
    expect(decodeURIComponent(value!)).toMatch(/^\$P\$B[./0-9A-Za-z]{30}$/);
    expect(value).toMatch(/^%24P%24B/);
    const expires = Date.parse(attributes.find((a) => /^expires=/i.test(a))!.slice(8));
    expect(expires - Date.now()).toBeGreaterThan(9.9 * 86400_000);
    expect(expires - Date.now()).toBeLessThan(10.1 * 86400_000);
    expect(attributes.map((a) => a.toLowerCase())).toEqual(expect.arrayContaining(['path=/', 'httponly', 'samesite=lax']));
  });

  it('with the cookie the page shows everything, privately; without it, it stays shut for everyone else', async () => {
    const cookie = await unlock();
    const before = s.cache.hits;
    const r = await s.request(path(event.url), { headers: { Cookie: cookie } });
    expect(r.status).toBe(200);
    expect(main(r.text)).toContain(`<h1>Protected: ${TITLE}</h1>`);
    for (const d of DETAILS) expect(r.text, d).toContain(d);
    expect(r.text).not.toContain('post-password-form');
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    expect(r.headers.get('vary')).toMatch(/Cookie/);
    expect(r.headers.get('x-cache')).toBeNull();
    // The views and feeds too.
    const day = await s.request('/events/2027-04-08/', { headers: { Cookie: cookie } });
    expect(main(day.text)).toContain('Seed Venue 0');
    expect(day.headers.get('cache-control')).toBe('private, no-store');
    const ics = await s.request(`/event/${event.slug}.ics`, { headers: { Cookie: cookie } });
    expect(vevent(ics.text, TITLE).get('DESCRIPTION')).toBe('DESCRIPTION:The secret programme.');
    expect(ics.headers.get('cache-control')).toBe('private, no-store');

    // Nobody else is handed that answer: anonymous reads (twice: the second from the byte cache) stay shut.
    for (let i = 0; i < 2; i++) {
      const other = await s.request(path(event.url));
      expect(other.text).toContain('post-password-form');
      hides(other.text, 'another visitor');
    }
    expect(s.cache.hits).toBeGreaterThan(before);
    // A page with no protected record does not depend on the cookie.
    const plain = await s.request(path(open.url), { headers: { Cookie: cookie } });
    expect(plain.headers.get('vary') ?? '').not.toMatch(/Cookie/);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=0');
    // The REST API takes `?password=`, not the cookie.
    expect((await s.api(`/events/${event.id}`, { headers: { Cookie: cookie } })).status).toBe(403);
  });

  it('a cookie WordPress set opens the page; a forged or unreadable one does not', async () => {
    const wordpress = `${cookieName}=${encodeURIComponent(hashPostPassword(PASSWORD))}`;
    expect((await s.request(path(event.url), { headers: { Cookie: wordpress } })).text).toContain('o0@example.org');
    for (const bad of [hashPostPassword('guess'), '$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0', 'garbage', '%E0%A4%A']) {
      const r = await s.request(path(event.url), { headers: { Cookie: `${cookieName}=${bad.startsWith('%') ? bad : encodeURIComponent(bad)}` } });
      expect(r.status, bad).toBe(200);
      expect(r.text, bad).toContain('post-password-form');
      hides(r.text, bad);
      expect(r.headers.get('cache-control'), bad).toBe('private, no-store');
    }
  });

  it('bad posts get a clear refusal, never a cookie: another site\'s form, not a form, too large, an unknown event', async () => {
    const refused = async (r: TestResponse, status: number) => {
      expect(r.status).toBe(status);
      expect(r.headers.get('set-cookie')).toBeNull();
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    };
    await refused(await s.request(path(event.url), form({ post_password: PASSWORD }, { Origin: 'https://evil.example' })), 403);
    await refused(await s.request(path(event.url), form({ post_password: PASSWORD }, { Origin: '', 'Sec-Fetch-Site': 'cross-site' })), 403);
    await refused(await s.request(path(event.url), { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: s.base }, body: JSON.stringify({ post_password: PASSWORD }) }), 415);
    await refused(await s.request(path(event.url), form({ post_password: 'x'.repeat(20_000) })), 413);
    await refused(await s.request('/event/no-such-event/', form({ post_password: PASSWORD })), 404);
    // The plain-permalink form of the page takes the post too.
    const byId = await s.request(`/?post_type=cal_events&p=${event.id}`, form({ post_password: PASSWORD }));
    expect([byId.status, byId.headers.get('location')]).toEqual([303, event.url]);
  });

  it('guesses are throttled as sign-ins are', async () => {
    let last: TestResponse | undefined;
    for (let i = 0; i < 12; i++) last = await s.request(path(event.url), form({ post_password: `guess-${i}` }));
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('set-cookie')).toBeNull();
  });
});
