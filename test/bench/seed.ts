/**
 * Seeds a realistic calendar for the load benchmark: events spread over two years around now (1–2
 * venues and 1–3 organizers each, categories in a three-level hierarchy, tags, images, some drafts,
 * private/pending/future posts and trash), written in bulk with `createMany`.
 *
 * Invariants of the data model are kept: every event, venue, organizer and attachment owns a row of
 * `Post` (with its `type`) under the same ID, every category and tag a row of `Term`; the sequences
 * are moved past the IDs used, so the server keeps allocating from there. Deterministic for a given
 * size and `now` (seeded PRNG), so PGlite and PostgreSQL get the same rows.
 *
 * Standalone: `tsx test/bench/seed.ts <events> [DATABASE_URL|dir]` (unset = PGlite in CAL_DATA_DIR).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DateTime } from 'luxon';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { slugify } from '../../src/domain/slug.ts';
import { progressBar } from './progress.ts';

export interface SeedOptions {
  events: number;
  /** Centre of the two-year span; default: now. */
  now?: Date;
  /** Site time zone (the server's CAL_TIMEZONE), for `dateLocal`/`modifiedLocal`. */
  siteTimezone?: string;
  seed?: number;
  /** Draw a progress bar on stderr (default true). */
  progress?: boolean;
  label?: string;
}

/** What the bench needs to know about the seeded data. */
export interface SeedInfo {
  events: number;
  venues: number;
  organizers: number;
  attachments: number;
  categories: number;
  tags: number;
  users: number;
  rows: number;
  seconds: number;
  /** Highest post ID written by the seeder (events created later by the bench are above it). */
  maxPostId: number;
  /** Published, unprotected, listed events (for single reads). */
  sampleEvents: { id: number; slug: string }[];
  venueIds: number[];
  organizerIds: number[];
  /** Top-level categories, with the number of published events under them (descendants included). */
  topCategories: { id: number; slug: string; name: string }[];
  tagIds: number[];
  /** A word that occurs in many titles (search scenario). */
  searchWord: string;
}

/* ------------------------------------------------------------------------------ deterministic PRNG */

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  chance(p: number) {
    return this.next() < p;
  }
  /** Skewed towards the start of the list (popular venues, common tags). */
  skewed<T>(list: readonly T[]): T {
    const r = this.next();
    return list[Math.floor(r * r * list.length)];
  }
  distinct<T>(n: number, draw: () => T): T[] {
    const out = new Set<T>();
    for (let tries = 0; out.size < n && tries < n * 10; tries++) out.add(draw());
    return [...out];
  }
}

/* ----------------------------------------------------------------------------------- vocabularies */

const WORDS = (
  'community local annual evening morning weekend open free guided seasonal live special public summer winter spring autumn ' +
  'neighbourhood friendly hands-on intro advanced together downtown riverside harbour garden city festival series night gathering ' +
  'learn share discover enjoy celebrate meet explore practice create listen build taste walk join bring welcome everyone family'
).split(' ');

const ADJECTIVES = ['Spring', 'Summer', 'Autumn', 'Winter', 'Annual', 'Weekly', 'Monthly', 'Late-Night', 'Sunday', 'Friday', 'Open', 'Grand', 'Community', 'Downtown', 'Riverside', 'Harbour', 'Midweek', 'Family', 'Student', 'Charity'];

/** Category tree: top level → children (→ grandchildren), with the title nouns of each leaf. */
interface CategorySpec {
  name: string;
  nouns?: string[];
  children?: CategorySpec[];
}
const CATEGORY_TREE: CategorySpec[] = [
  {
    name: 'Music',
    children: [
      { name: 'Jazz', nouns: ['Jazz Night', 'Jazz Brunch', 'Jazz Jam Session'], children: [{ name: 'Swing', nouns: ['Swing Dance Night', 'Big Band Swing'] }, { name: 'Bebop', nouns: ['Bebop Quartet', 'Bebop Jazz Session'] }] },
      { name: 'Rock', nouns: ['Rock Concert', 'Indie Rock Showcase', 'Battle of the Bands'] },
      { name: 'Classical', nouns: ['Piano Recital', 'String Quartet', 'Chamber Concert', 'Symphony Evening'] },
      { name: 'Folk', nouns: ['Folk Session', 'Singer-Songwriter Night', 'Bluegrass Jam'] },
    ],
  },
  {
    name: 'Arts',
    children: [
      { name: 'Theatre', nouns: ['Theatre Performance', 'Improv Show', 'Play Reading'] },
      { name: 'Dance', nouns: ['Dance Performance', 'Salsa Social', 'Ballet Matinee'] },
      { name: 'Exhibitions', nouns: ['Gallery Opening', 'Photography Exhibition', 'Art Walk'], children: [{ name: 'Photography', nouns: ['Photo Walk', 'Darkroom Open Day'] }] },
      { name: 'Film', nouns: ['Film Screening', 'Documentary Night', 'Short Film Festival'] },
    ],
  },
  { name: 'Sports', children: [{ name: 'Running', nouns: ['Fun Run', '5K Race', 'Trail Run'] }, { name: 'Cycling', nouns: ['Group Ride', 'Bike Repair Clinic'] }, { name: 'Football', nouns: ['Football Match', 'Five-a-Side Tournament'] }] },
  {
    name: 'Education',
    children: [
      { name: 'Workshops', nouns: ['Pottery Workshop', 'Writing Workshop', 'Woodworking Workshop'], children: [{ name: 'Coding Workshops', nouns: ['Python Workshop', 'Web Basics Workshop'] }] },
      { name: 'Lectures', nouns: ['Public Lecture', 'History Talk', 'Science Lecture'] },
      { name: 'Courses', nouns: ['Language Course', 'First Aid Course', 'Photography Course'] },
    ],
  },
  { name: 'Community', children: [{ name: 'Volunteering', nouns: ['Park Clean-Up', 'Food Bank Shift', 'Tree Planting'] }, { name: 'Meetups', nouns: ['Book Club', 'Board Game Night', 'Neighbourhood Meetup'] }] },
  { name: 'Food & Drink', children: [{ name: 'Tastings', nouns: ['Wine Tasting', 'Craft Beer Tasting', 'Cheese Tasting'] }, { name: 'Markets', nouns: ['Farmers Market', 'Night Market', 'Street Food Fair'] }] },
  { name: 'Health & Wellness', children: [{ name: 'Yoga', nouns: ['Yoga Class', 'Sunrise Yoga', 'Yoga in the Park'] }, { name: 'Meditation', nouns: ['Meditation Circle', 'Mindfulness Session'] }] },
  { name: 'Family', nouns: ['Family Fun Day', 'Storytime', 'Kids Craft Afternoon'] },
  { name: 'Business', nouns: ['Networking Breakfast', 'Startup Pitch Night', 'Small Business Clinic'] },
  { name: 'Technology', children: [{ name: 'Hackathons', nouns: ['Hackathon', 'Open Data Hack Day'] }, { name: 'Tech Talks', nouns: ['Tech Talk', 'AI Meetup', 'Developer Meetup'] }] },
];

const TAG_BASE = [
  'free', 'outdoor', 'indoor', 'family-friendly', 'accessible', 'online', 'kids', 'beginners', 'all levels', 'weekend', 'evening', 'ticketed', 'donation',
  'live music', 'workshop', 'members only', 'rsvp', 'wheelchair access', 'dog friendly', 'food', 'drinks', 'bring your own', 'students', 'seniors',
  'charity', 'festival', 'series', 'new', 'popular', 'last minute', 'limited seats', 'sold out', 'english', 'spanish', 'french', 'hybrid',
];

const CITIES = [
  { city: 'New York', state: 'NY', country: 'United States', zip: '10001', lat: 40.7128, lng: -74.006 },
  { city: 'Brooklyn', state: 'NY', country: 'United States', zip: '11201', lat: 40.6782, lng: -73.9442 },
  { city: 'Boston', state: 'MA', country: 'United States', zip: '02108', lat: 42.3601, lng: -71.0589 },
  { city: 'Philadelphia', state: 'PA', country: 'United States', zip: '19103', lat: 39.9526, lng: -75.1652 },
  { city: 'Chicago', state: 'IL', country: 'United States', zip: '60601', lat: 41.8781, lng: -87.6298 },
  { city: 'Austin', state: 'TX', country: 'United States', zip: '78701', lat: 30.2672, lng: -97.7431 },
  { city: 'Seattle', state: 'WA', country: 'United States', zip: '98101', lat: 47.6062, lng: -122.3321 },
  { city: 'Toronto', province: 'Ontario', country: 'Canada', zip: 'M5H 2N2', lat: 43.6532, lng: -79.3832 },
  { city: 'Montréal', province: 'Québec', country: 'Canada', zip: 'H2Y 1C6', lat: 45.5017, lng: -73.5673 },
  { city: 'Paris', province: 'Île-de-France', country: 'France', zip: '75001', lat: 48.8566, lng: 2.3522 },
  { city: 'Berlin', province: 'Berlin', country: 'Germany', zip: '10115', lat: 52.52, lng: 13.405 },
];
const VENUE_KINDS = ['Hall', 'Theatre', 'Community Centre', 'Library', 'Park', 'Gallery', 'Arena', 'Club', 'Studio', 'Church', 'Brewery', 'Market Square', 'Auditorium', 'Pavilion'];
const VENUE_PREFIX = ['Riverside', 'Oak Street', 'Central', 'Harbour', 'Old Town', 'Maple', 'Union', 'Grand', 'Lakeside', 'Westside', 'Eastside', 'Northgate', 'Elm', 'Victoria', 'Liberty', 'Cedar', 'Sunset', 'Highland'];
const STREETS = ['Main St', 'Oak Ave', 'Broadway', 'Elm St', '2nd Ave', 'Market St', 'Park Rd', 'Queen St', 'King St', 'Rue de Rivoli', 'Hauptstraße'];
const FIRST = ['Ana', 'Ben', 'Chloé', 'David', 'Emma', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kara', 'Liam', 'Maya', 'Noah', 'Olga', 'Pablo', 'Quinn', 'Rosa', 'Sam', 'Tara'];
const LAST = ['Martin', 'Nguyen', 'Smith', 'García', 'Müller', 'Kowalski', 'Okafor', 'Rossi', 'Dubois', 'Chen', 'Johnson', 'Silva', 'Haddad', 'Novak'];
const ORG_KINDS = ['Arts Council', 'Music Society', 'Running Club', 'Friends of the Library', 'Makers Guild', 'Food Collective', 'Film Society', 'Youth League', 'Chamber of Commerce', 'Dance Company', 'Garden Club'];
const TIMEZONES: [string, number][] = [
  ['America/New_York', 0.8],
  ['America/Chicago', 0.07],
  ['America/Los_Angeles', 0.05],
  ['Europe/Paris', 0.05],
  ['Europe/Berlin', 0.03],
];

/* ----------------------------------------------------------------------------------------- helpers */

const wall = (dt: DateTime) => new Date(Date.UTC(dt.year, dt.month - 1, dt.day, dt.hour, dt.minute, dt.second));
const utcInstant = (dt: DateTime) => new Date(Math.floor(dt.toMillis() / 1000) * 1000);

function sentence(rng: Rng, min: number, max: number, extra: string[] = []): string {
  const n = rng.int(min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(extra.length && rng.chance(0.08) ? rng.pick(extra).toLowerCase() : rng.pick(WORDS));
  const s = words.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

function paragraphs(rng: Rng, extra: string[]): string {
  const n = rng.int(1, 4);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(Array.from({ length: rng.int(2, 5) }, () => sentence(rng, 6, 16, extra)).join(' '));
  return out.join('\n\n');
}

function pickTimezone(rng: Rng): string {
  let r = rng.next();
  for (const [tz, w] of TIMEZONES) if ((r -= w) < 0) return tz;
  return TIMEZONES[0][0];
}

type Status = 'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash';

function eventStatus(rng: Rng): Status {
  const r = rng.next();
  if (r < 0.86) return 'publish';
  if (r < 0.87) return 'future';
  if (r < 0.92) return 'draft';
  if (r < 0.93) return 'pending';
  if (r < 0.94) return 'private';
  return 'trash';
}

/** Inserts rows in chunks small enough for PostgreSQL's 65,535 bind parameters. */
async function insertChunks<T extends object>(
  rows: T[],
  write: (chunk: T[]) => Promise<unknown>,
  onRows: (n: number) => void,
  columns = Object.keys(rows[0] ?? {}).length || 1,
) {
  const size = Math.max(100, Math.min(5000, Math.floor(30_000 / columns)));
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    await write(chunk);
    onRows(chunk.length);
  }
}

/* -------------------------------------------------------------------------------------------- seed */

/** Seeds an empty, migrated database. */
export async function seedDatabase(db: Database, opts: SeedOptions): Promise<SeedInfo> {
  const started = performance.now();
  const prisma = db.prisma;
  const rng = new Rng(opts.seed ?? 20261121);
  const now = DateTime.fromJSDate(opts.now ?? new Date(), { zone: 'utc' }).startOf('second');
  const siteTz = opts.siteTimezone ?? 'America/New_York';
  const siteLocal = (instant: DateTime) => wall(instant.setZone(siteTz));
  const n = opts.events;
  const nVenues = Math.max(20, Math.round(n / 20));
  const nOrganizers = Math.max(15, Math.round(n / 25));
  const nAttachments = Math.max(30, Math.round(n / 8));
  const nTags = Math.min(400, TAG_BASE.length + Math.round(n / 500));

  const existing = await prisma.post.count();
  if (existing > 0) throw new Error(`seed: the database already holds ${existing} posts; seed an empty one`);

  // Rough row count for the progress bar: posts + kind rows + links.
  const estimate = 2 * (n + nVenues + nOrganizers + nAttachments) + Math.round(n * (1.2 + 1.5 + 1.3 + 1.5)) + 200;
  const bar = opts.progress === false ? null : progressBar(opts.label ?? `seed ${n}`, estimate);
  let done = 0;
  const tick = (what: string) => (k: number) => {
    done += k;
    bar?.update(done, what);
  };

  /* users (authors; the bootstrap administrator is created by the server) */
  const userRows: Prisma.UserCreateManyInput[] = [
    { login: 'bench-editor', displayName: 'Bench Editor', role: 'EDITOR', passwordHash: '!' },
    { login: 'bench-author-1', displayName: 'Bench Author One', role: 'AUTHOR', passwordHash: '!' },
    { login: 'bench-author-2', displayName: 'Bench Author Two', role: 'AUTHOR', passwordHash: '!' },
    { login: 'bench-contributor', displayName: 'Bench Contributor', role: 'CONTRIBUTOR', passwordHash: '!' },
  ];
  await prisma.user.createMany({ data: userRows });
  const userIds = (await prisma.user.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((u) => u.id);
  const author = () => (rng.chance(0.1) ? null : rng.skewed(userIds));
  /** The post columns venues and organizers share; draws author() then the content, in that order (bench data stays the same). */
  const linkedPostRow = (id: number, status: Status, slug: string, name: string, contentChance: number, published: DateTime, modified: DateTime) => ({
    id,
    authorId: author(),
    status,
    trashedFromStatus: status === 'trash' ? ('publish' as const) : null,
    slug: status === 'trash' ? `${slug}__trashed` : slug,
    name,
    content: rng.chance(contentChance) ? paragraphs(rng, []) : '',
    dateUtc: utcInstant(published),
    dateLocal: siteLocal(published),
    modifiedUtc: utcInstant(modified),
    modifiedLocal: siteLocal(modified),
  });

  /* post ID space: attachments, venues, organizers, then events */
  let nextPostId = 1;
  const alloc = (count: number) => Array.from({ length: count }, () => nextPostId++);
  const attachmentIds = alloc(nAttachments);
  const venueIds = alloc(nVenues);
  const organizerIds = alloc(nOrganizers);
  const eventIds = alloc(n);
  const postRows: Prisma.PostCreateManyInput[] = [
    ...attachmentIds.map((id) => ({ id, type: 'ATTACHMENT' as const })),
    ...venueIds.map((id) => ({ id, type: 'VENUE' as const })),
    ...organizerIds.map((id) => ({ id, type: 'ORGANIZER' as const })),
    ...eventIds.map((id) => ({ id, type: 'EVENT' as const })),
  ];
  await insertChunks(postRows, (c) => prisma.post.createMany({ data: c }), tick('posts'));

  /* attachments */
  const attachments: Prisma.AttachmentCreateManyInput[] = attachmentIds.map((id, i) => {
    const created = now.minus({ days: rng.int(30, 900) });
    const file = `${created.toFormat('yyyy/MM')}/photo-${i + 1}`;
    const base = `https://cdn.example.org/uploads/${file}`;
    const size = (name: string, w: number, h: number) => ({ [name]: { width: w, height: h, 'mime-type': 'image/jpeg', filesize: Math.round(w * h * 0.12), url: `${base}-${w}x${h}.jpg` } });
    return {
      id,
      authorId: author(),
      title: `Photo ${i + 1}`,
      url: `${base}.jpg`,
      mimeType: 'image/jpeg',
      width: 1600,
      height: 1067,
      filesize: rng.int(120_000, 900_000),
      sizes: { ...size('medium', 300, 200), ...size('large', 1024, 683), ...size('thumbnail', 150, 150), ...size('medium_large', 768, 512) },
      createdAt: utcInstant(created),
    };
  });
  await insertChunks(attachments, (c) => prisma.attachment.createMany({ data: c }), tick('attachments'));
  const image = (p: number) => (rng.chance(p) ? rng.pick(attachmentIds) : null);

  /* venues */
  const venueSlugs = new Map<string, number>();
  const uniqueSlug = (seen: Map<string, number>, base: string) => {
    const k = (seen.get(base) ?? 0) + 1;
    seen.set(base, k);
    return k === 1 ? base : `${base}-${k}`;
  };
  const publishedVenues: number[] = [];
  const venues: Prisma.VenueCreateManyInput[] = venueIds.map((id) => {
    const c = rng.pick(CITIES);
    const name = `${rng.pick(VENUE_PREFIX)} ${rng.pick(VENUE_KINDS)}`;
    const r = rng.next();
    const status: Status = r < 0.94 ? 'publish' : r < 0.97 ? 'draft' : 'trash';
    if (status === 'publish') publishedVenues.push(id);
    const published = now.minus({ days: rng.int(60, 1200), minutes: rng.int(0, 1440) });
    const modified = published.plus({ days: rng.int(0, 50) });
    const slug = uniqueSlug(venueSlugs, slugify(name));
    return {
      ...linkedPostRow(id, status, slug, name, 0.6, published, modified < now ? modified : now),
      address: `${rng.int(1, 2500)} ${rng.pick(STREETS)}`,
      city: c.city,
      country: c.country,
      state: c.state ?? '',
      province: c.province ?? '',
      stateprovince: c.state ?? c.province ?? '',
      zip: c.zip,
      phone: rng.chance(0.7) ? `+1 555 ${rng.int(100, 999)} ${rng.int(1000, 9999)}` : '',
      website: rng.chance(0.6) ? `https://venues.example.org/${slug}` : '',
      latitude: rng.chance(0.85) ? +(c.lat + (rng.next() - 0.5) * 0.2).toFixed(6) : null,
      longitude: null as number | null,
      showMap: rng.chance(0.5) ? true : null,
      showMapLink: rng.chance(0.5) ? true : null,
      imageId: image(0.3),
    };
  });
  for (const v of venues) if (v.latitude !== null) v.longitude = +(CITIES.find((c) => c.city === v.city)!.lng + (rng.next() - 0.5) * 0.2).toFixed(6);
  await insertChunks(venues, (c) => prisma.venue.createMany({ data: c }), tick('venues'));

  /* organizers */
  const orgSlugs = new Map<string, number>();
  const organizers: Prisma.OrganizerCreateManyInput[] = organizerIds.map((id) => {
    const name = rng.chance(0.5) ? `${rng.pick(FIRST)} ${rng.pick(LAST)}` : `${rng.pick(CITIES).city} ${rng.pick(ORG_KINDS)}`;
    const r = rng.next();
    const status: Status = r < 0.95 ? 'publish' : r < 0.98 ? 'draft' : 'trash';
    const published = now.minus({ days: rng.int(60, 1200), minutes: rng.int(0, 1440) });
    const slug = uniqueSlug(orgSlugs, slugify(name));
    return {
      ...linkedPostRow(id, status, slug, name, 0.4, published, published),
      phone: rng.chance(0.6) ? `+1 555 ${rng.int(100, 999)} ${rng.int(1000, 9999)}` : '',
      website: rng.chance(0.5) ? `https://org.example.org/${slug}` : '',
      email: rng.chance(0.7) ? `${slug.slice(0, 40)}@example.org` : '',
      imageId: image(0.15),
    };
  });
  await insertChunks(organizers, (c) => prisma.organizer.createMany({ data: c }), tick('organizers'));

  /* term ID space: categories (parents before children), then tags */
  let nextTermId = 1;
  interface Cat {
    id: number;
    name: string;
    slug: string;
    parentId: number | null;
    top: number;
    nouns: string[];
  }
  const cats: Cat[] = [];
  const catSlugs = new Map<string, number>();
  const walk = (specs: CategorySpec[], parent: Cat | null) => {
    for (const s of specs) {
      const id = nextTermId++;
      const cat: Cat = { id, name: s.name, slug: uniqueSlug(catSlugs, slugify(s.name)), parentId: parent?.id ?? null, top: parent?.top ?? id, nouns: s.nouns ?? [] };
      cats.push(cat);
      if (s.children) walk(s.children, cat);
    }
  };
  walk(CATEGORY_TREE, null);
  const tagNames = [...TAG_BASE];
  for (let i = 0; tagNames.length < nTags; i++) tagNames.push(`${rng.pick(WORDS)} ${rng.pick(WORDS)} ${i + 1}`);
  const tags = tagNames.map((name) => ({ id: nextTermId++, name, slug: slugify(name) }));
  await prisma.term.createMany({ data: [...cats.map((c) => ({ id: c.id, taxonomy: 'CATEGORY' as const })), ...tags.map((t) => ({ id: t.id, taxonomy: 'TAG' as const }))] });
  for (let depth = 0; depth < 3; depth++) {
    const level = cats.filter((c) => {
      let d = 0;
      for (let p = c.parentId; p !== null; p = cats.find((x) => x.id === p)!.parentId) d++;
      return d === depth;
    });
    if (level.length) {
      await prisma.category.createMany({
        data: level.map((c) => ({ id: c.id, name: c.name, slug: c.slug, parentId: c.parentId, description: rng.chance(0.5) ? sentence(rng, 8, 14) : '' })),
      });
    }
  }
  await prisma.tag.createMany({ data: tags.map((t) => ({ id: t.id, name: t.name, slug: t.slug, description: '' })) });
  tick('terms')(cats.length * 2 + tags.length * 2);
  const leafCats = cats.filter((c) => c.nouns.length);

  /* events and their links */
  const eventSlugs = new Map<string, number>();
  const events: Prisma.EventCreateManyInput[] = [];
  const eventVenues: Prisma.EventVenueCreateManyInput[] = [];
  const eventOrganizers: Prisma.EventOrganizerCreateManyInput[] = [];
  const eventCategories: Prisma.EventCategoryCreateManyInput[] = [];
  const eventTags: Prisma.EventTagCreateManyInput[] = [];
  const sampleEvents: { id: number; slug: string }[] = [];
  const spanDays = 365;
  for (const id of eventIds) {
    const cat = rng.pick(leafCats);
    const noun = rng.pick(cat.nouns);
    const title = rng.chance(0.7) ? `${rng.pick(ADJECTIVES)} ${noun}` : noun + (rng.chance(0.5) ? ` at ${rng.pick(VENUE_PREFIX)}` : '');
    const tz = pickTimezone(rng);
    const day = now.setZone(tz).startOf('day').plus({ days: rng.int(-spanDays, spanDays) });
    const kind = rng.next();
    const allDay = kind < 0.08;
    let startL: DateTime;
    let endL: DateTime;
    if (allDay) {
      startL = day;
      endL = day.plus({ days: rng.chance(0.3) ? rng.int(1, 3) : 0 }).set({ hour: 23, minute: 59, second: 59 });
    } else {
      startL = day.set({ hour: rng.int(8, 20), minute: rng.pick([0, 0, 0, 15, 30, 30, 45]) });
      const minutes = kind < 0.16 ? rng.int(2, 4) * 24 * 60 : rng.pick([30, 45, 60, 90, 120, 120, 180, 240]);
      endL = startL.plus({ minutes });
    }
    const status = eventStatus(rng);
    // Publication: a few weeks before the start (never after now for published posts).
    let published = DateTime.min(startL.toUTC().minus({ days: rng.int(3, 90), minutes: rng.int(0, 1440) }), now.minus({ minutes: rng.int(1, 600) }));
    if (status === 'future') published = now.plus({ days: rng.int(1, 30), minutes: rng.int(0, 1440) });
    const neverPublished = (status === 'draft' || status === 'pending') && rng.chance(0.5);
    const modified = status === 'future' ? now.minus({ days: rng.int(0, 10) }) : DateTime.min(published.plus({ days: rng.int(0, 20) }), now);
    const base = slugify(title);
    const slug = neverPublished && rng.chance(0.6) ? null : uniqueSlug(eventSlugs, base);
    const costKind = rng.next();
    const cost = costKind < 0.4 ? [] : costKind < 0.6 ? [rng.pick(['Free', '0'])] : costKind < 0.9 ? [String(rng.int(5, 80))] : [String(rng.int(5, 30)), String(rng.int(35, 120))];
    const hasSymbol = cost.length > 0 && cost[0] !== 'Free' && rng.chance(0.7);
    const password = status === 'publish' && rng.chance(0.005) ? 'secret' : '';
    const hide = rng.chance(0.01);
    events.push({
      id,
      authorId: author(),
      status,
      trashedFromStatus: status === 'trash' ? 'publish' : null,
      slug: status === 'trash' && slug ? `${slug}__trashed` : slug,
      title,
      content: paragraphs(rng, [noun, cat.name]),
      excerpt: rng.chance(0.3) ? sentence(rng, 10, 25, [noun]) : '',
      password,
      dateUtc: neverPublished ? null : utcInstant(published),
      dateLocal: siteLocal(neverPublished ? modified : published),
      modifiedUtc: utcInstant(modified),
      modifiedLocal: siteLocal(modified),
      startLocal: wall(startL),
      endLocal: wall(endL),
      startUtc: utcInstant(startL),
      endUtc: utcInstant(endL),
      timezone: tz,
      allDay,
      cost,
      currencySymbol: hasSymbol ? (tz.startsWith('Europe') ? '€' : '$') : '',
      currencyPosition: hasSymbol ? (tz.startsWith('Europe') ? 'postfix' : 'prefix') : '',
      currencyCode: hasSymbol ? (tz.startsWith('Europe') ? 'EUR' : 'USD') : '',
      website: rng.chance(0.5) ? null : `https://events.example.org/${slug ?? id}`,
      showMap: rng.chance(0.6) ? null : rng.chance(0.8),
      showMapLink: rng.chance(0.6) ? null : rng.chance(0.8),
      hideFromListings: hide,
      sticky: rng.chance(0.02),
      featured: rng.chance(0.08),
      imageId: image(0.35),
    });
    if (status === 'publish' && !password && !hide && slug && sampleEvents.length < 5000) sampleEvents.push({ id, slug });

    const nv = rng.chance(0.8) ? 1 : 2;
    rng.distinct(nv, () => rng.skewed(venueIds)).forEach((venueId, position) => eventVenues.push({ eventId: id, venueId, position }));
    const no = rng.chance(0.6) ? 1 : rng.chance(0.75) ? 2 : 3;
    rng.distinct(no, () => rng.skewed(organizerIds)).forEach((organizerId, position) => eventOrganizers.push({ eventId: id, organizerId, position }));
    const catIds = new Set([cat.id]);
    if (rng.chance(0.3)) catIds.add(rng.pick(cats).id);
    for (const categoryId of catIds) eventCategories.push({ eventId: id, categoryId });
    const nt = rng.pick([0, 1, 1, 2, 2, 3]);
    for (const t of rng.distinct(nt, () => rng.skewed(tags).id)) eventTags.push({ eventId: id, tagId: t });
  }
  await insertChunks(events, (c) => prisma.event.createMany({ data: c }), tick('events'));
  await insertChunks(eventVenues, (c) => prisma.eventVenue.createMany({ data: c }), tick('event venues'));
  await insertChunks(eventOrganizers, (c) => prisma.eventOrganizer.createMany({ data: c }), tick('event organizers'));
  await insertChunks(eventCategories, (c) => prisma.eventCategory.createMany({ data: c }), tick('event categories'));
  await insertChunks(eventTags, (c) => prisma.eventTag.createMany({ data: c }), tick('event tags'));

  // The server allocates IDs after the seeded ones.
  await prisma.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"Post"', 'id'), ${nextPostId - 1})`);
  await prisma.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"Term"', 'id'), ${nextTermId - 1})`);
  // Fresh statistics, as autovacuum would have them on a live PostgreSQL (PGlite has no autovacuum).
  await prisma.$executeRawUnsafe('VACUUM ANALYZE');
  const rows = done;
  const seconds = (performance.now() - started) / 1000;
  bar?.done(`${rows} rows`);

  // Rotate single reads over events spread through the table.
  const step = Math.max(1, Math.floor(sampleEvents.length / 500));
  return {
    events: n,
    venues: nVenues,
    organizers: nOrganizers,
    attachments: nAttachments,
    categories: cats.length,
    tags: tags.length,
    users: userRows.length,
    rows,
    seconds,
    maxPostId: nextPostId - 1,
    sampleEvents: sampleEvents.filter((_, i) => i % step === 0).slice(0, 500),
    venueIds: publishedVenues,
    organizerIds,
    topCategories: cats.filter((c) => c.parentId === null).map((c) => ({ id: c.id, slug: c.slug, name: c.name })),
    tagIds: tags.map((t) => t.id),
    searchWord: 'jazz',
  };
}

/** Opens (and migrates) a database, seeds it and closes it again. */
export async function seedUrl(url: string | undefined, dataDir: string | undefined, opts: SeedOptions): Promise<SeedInfo> {
  const db = await openDatabase(url, { dataDir });
  try {
    await applyMigrations(db);
    return await seedDatabase(db, opts);
  } finally {
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const events = Number(process.argv[2] ?? 1000);
  const target = process.argv[3] ?? process.env.DATABASE_URL;
  const isUrl = target !== undefined && /^[a-z]+:/i.test(target);
  const info = await seedUrl(isUrl ? target : undefined, isUrl ? undefined : path.resolve(target ?? process.env.CAL_DATA_DIR ?? './data'), { events });
  const { sampleEvents, venueIds, organizerIds, tagIds, ...summary } = info;
  console.log(JSON.stringify({ ...summary, sampleEvents: sampleEvents.length, venueIds: venueIds.length }, null, 2));
}
