/**
 * The practical limit of `GET /events?per_page=50`: a minimal Koa handler that sends hand-written
 * SQL for the same rows (same filter, order and page, same visibility of linked records, same
 * published-event counts of terms) — three prepared statements: the page with its relations nested
 * as JSON, the total, and the counts of the page's distinct terms — and shapes an equivalent JSON body (same keys, WordPress
 * escaping), with no GraphQL, no ORM and no argument machinery. Bench only, not part of the product.
 *
 * `node --import tsx test/bench/minimal-handler.ts` with PORT, HOST and DATABASE_URL (postgres://…)
 * or CAL_DATA_DIR (PGlite data directory, opened directly; one process per directory).
 * Answers `GET /readyz` and `GET /wp-json/cal/events/v1/events?page=&per_page=`; every response
 * carries `X-SQL-Queries`.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import Koa from 'koa';
import { DateTime } from 'luxon';
import pg from 'pg';
import { pathToFileURL } from 'node:url';

const PORT = Number(process.env.PORT ?? 8081);
const HOST = process.env.HOST ?? '127.0.0.1';
const SITE_TZ = process.env.CAL_TIMEZONE ?? 'America/New_York';
const PER_PAGE = 10;
const MAX_PER_PAGE = 50;

type Row = Record<string, any>;
interface Db {
  /**
   * Runs a statement prepared once per connection (no planning per request). The page size is part
   * of the statement, so even the generic plan knows it fetches `perPage` rows.
   */
  run(name: StatementName, perPage: number, params: Param[]): Promise<Row[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
type StatementName = 'page' | 'total' | 'terms';
type Param = string | number | number[];

const statement = (name: StatementName, perPage: number) => (name === 'page' ? pageSql(perPage) : name === 'total' ? TOTAL_SQL : TERM_COUNTS_SQL);
const PARAM_TYPES: Record<StatementName, string> = { page: 'timestamp, timestamp, int', total: 'timestamp, timestamp', terms: 'int[], int[]' };

async function openDb(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (url && /^postgres(ql)?:/.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return {
      run: async (name, perPage, values) => (await pool.query({ name: `${name}_${perPage}`, text: statement(name, perPage), values })).rows,
      ping: async () => void (await pool.query('SELECT 1')),
      close: () => pool.end(),
    };
  }
  const dir = process.env.CAL_DATA_DIR;
  if (!dir) throw new Error('set DATABASE_URL=postgres://… or CAL_DATA_DIR');
  const db = await PGlite.create(dir, { extensions: { pg_trgm } });
  const prepared = new Set<string>();
  // Our own values only (window bounds, integers), so literal arguments are safe.
  const literal = (v: Param): string =>
    Array.isArray(v) ? `'{${v.map((n) => Math.trunc(n)).join(',')}}'` : typeof v === 'number' ? String(Math.trunc(v)) : `'${v.replace(/'/g, "''")}'`;
  return {
    run: async (name, perPage, values) => {
      const id = `${name}_${perPage}`;
      if (!prepared.has(id)) {
        await db.exec(`PREPARE ${id}(${PARAM_TYPES[name]}) AS ${statement(name, perPage)}`);
        prepared.add(id);
      }
      return (await db.query<Row>(`EXECUTE ${id}(${values.map(literal).join(', ')})`)).rows;
    },
    ping: async () => void (await db.query('SELECT 1')),
    close: () => db.close(),
  };
}

const ts = (col: string) => `to_char(${col}, 'YYYY-MM-DD HH24:MI:SS')`;
const IMAGE = (alias: string, fk: string) =>
  `(SELECT json_build_object('id', ${alias}.id, 'url', ${alias}.url, 'width', ${alias}.width, 'height', ${alias}.height, 'filesize', ${alias}.filesize, 'sizes', ${alias}.sizes)
     FROM "Attachment" ${alias} WHERE ${alias}.id = ${fk})`;
const POST_COMMON = (t: string) =>
  `'id', ${t}.id, 'authorId', ${t}."authorId", 'status', ${t}.status, 'slug', ${t}.slug, 'name', ${t}.name, 'content', ${t}.content,
   'excerpt', ${t}.excerpt, 'hasPassword', ${t}.password <> '', 'date', ${ts(`${t}."dateLocal"`)}, 'dateUtc', ${ts(`${t}."dateUtc"`)},
   'modified', ${ts(`${t}."modifiedLocal"`)}, 'modifiedUtc', ${ts(`${t}."modifiedUtc"`)}`;

const WHERE = `e.status = 'publish' AND e."hideFromListings" = false AND e."startLocal" >= $1 AND e."endLocal" <= $2`;

/** The page with everything nested (term counts come from TERM_COUNTS_SQL, once per distinct term). */
export const pageSql = (perPage: number) => `
WITH page AS (
  SELECT e.* FROM "Event" e WHERE ${WHERE} ORDER BY e."startLocal", e.id LIMIT ${Math.trunc(perPage)} OFFSET $3
)
SELECT p.id, p."authorId", p.status, p.slug, p.title, p.content, p.excerpt, p.password <> '' AS "hasPassword",
  ${ts('p."dateLocal"')} AS date, ${ts('p."dateUtc"')} AS "dateUtc", ${ts('p."modifiedLocal"')} AS modified, ${ts('p."modifiedUtc"')} AS "modifiedUtc",
  ${ts('p."startLocal"')} AS "startLocal", ${ts('p."endLocal"')} AS "endLocal", ${ts('p."startUtc"')} AS "startUtc", ${ts('p."endUtc"')} AS "endUtc",
  p.timezone, p."allDay", p.cost, p."currencySymbol", p."currencyPosition", p."currencyCode", p.website, p."showMap", p."showMapLink",
  p."hideFromListings", p.sticky, p.featured,
  ${IMAGE('a', 'p."imageId"')} AS image,
  (SELECT coalesce(json_agg(json_build_object(${POST_COMMON('v')},
      'address', v.address, 'city', v.city, 'country', v.country, 'province', v.province, 'state', v.state, 'zip', v.zip,
      'phone', v.phone, 'website', v.website, 'stateprovince', v.stateprovince, 'latitude', v.latitude, 'longitude', v.longitude,
      'showMap', v."showMap", 'showMapLink', v."showMapLink", 'image', ${IMAGE('va', 'v."imageId"')}) ORDER BY l.position), '[]')
     FROM "EventVenue" l JOIN "Venue" v ON v.id = l."venueId" AND v.status = 'publish' WHERE l."eventId" = p.id) AS venues,
  (SELECT coalesce(json_agg(json_build_object(${POST_COMMON('o')},
      'phone', o.phone, 'website', o.website, 'email', o.email, 'image', ${IMAGE('oa', 'o."imageId"')}) ORDER BY l.position), '[]')
     FROM "EventOrganizer" l JOIN "Organizer" o ON o.id = l."organizerId" AND o.status = 'publish' WHERE l."eventId" = p.id) AS organizers,
  (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'slug', c.slug, 'description', c.description,
      'parent', coalesce(c."parentId", 0)) ORDER BY c.name), '[]')
     FROM "EventCategory" l JOIN "Category" c ON c.id = l."categoryId" WHERE l."eventId" = p.id) AS categories,
  (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'description', t.description) ORDER BY t.name), '[]')
     FROM "EventTag" l JOIN "Tag" t ON t.id = l."tagId" WHERE l."eventId" = p.id) AS tags
FROM page p ORDER BY p."startLocal", p.id`;

export const TOTAL_SQL = `SELECT count(*)::int AS n FROM "Event" e WHERE ${WHERE}`;

/** Published events per term, for the distinct categories ($1) and tags ($2) of a page. */
export const TERM_COUNTS_SQL = `
SELECT 'c' AS k, x."categoryId" AS id, count(*)::int AS n FROM "EventCategory" x JOIN "Event" e ON e.id = x."eventId" AND e.status = 'publish'
WHERE x."categoryId" = ANY($1::int[]) GROUP BY x."categoryId"
UNION ALL
SELECT 't', x."tagId", count(*)::int FROM "EventTag" x JOIN "Event" e ON e.id = x."eventId" AND e.status = 'publish'
WHERE x."tagId" = ANY($2::int[]) GROUP BY x."tagId"`;

/* ------------------------------------------------------------------------------------ JSON shape */

const ZERO = '0000-00-00 00:00:00';

function details(text: string) {
  return { year: text.slice(0, 4), month: text.slice(5, 7), day: text.slice(8, 10), hour: text.slice(11, 13), minutes: text.slice(14, 16), seconds: text.slice(17, 19) };
}

function autop(text: string): string {
  if (!text.trim()) return '';
  return text
    .split(/\n\s*\n/)
    .map((p) => `<p>${p.trim().replace(/\n/g, '<br />\n')}</p>`)
    .join('\n');
}

const abbrCache = new Map<string, string>();
function tzAbbr(tz: string, wall: string): string {
  const key = `${tz}|${wall.slice(0, 10)}`;
  let v = abbrCache.get(key);
  if (v === undefined) {
    v = DateTime.fromSQL(wall, { zone: tz }).offsetNameShort ?? tz;
    v = v === 'GMT+1' ? 'CET' : v === 'GMT+2' ? 'CEST' : v;
    if (abbrCache.size > 10_000) abbrCache.clear();
    abbrCache.set(key, v);
  }
  return v;
}

function costText(e: Row): string {
  const list: string[] = e.cost ?? [];
  if (!list.length) return '';
  const sym = e.currencySymbol || '$';
  const show = (s: string) => (Number(s) === 0 ? 'Free' : /^\d/.test(s) ? (e.currencyPosition === 'postfix' ? `${s}${sym}` : `${sym}${s}`) : s);
  const nums = list.filter((s) => /^\d/.test(s)).map(Number).sort((a, b) => a - b);
  if (!nums.length) return show(list[0]);
  const lo = show(String(nums[0]));
  const hi = show(String(nums[nums.length - 1]));
  return lo === hi ? lo : `${lo} \u2013 ${hi}`;
}

function image(img: Row | null) {
  if (!img) return false;
  const out: Row = { url: img.url, id: img.id, extension: img.url.split('.').pop() };
  if (img.width) out.width = img.width;
  if (img.height) out.height = img.height;
  if (img.filesize) out.filesize = img.filesize;
  if (img.sizes) out.sizes = img.sizes;
  return out;
}

interface Urls {
  home: string;
  ns: string;
  host: string;
}

const postUrl = (u: Urls, base: string, type: string, id: number, status: string, slug: string | null) =>
  (status === 'publish' || status === 'private') && slug ? `${u.home}/${base}/${slug}/` : `${u.home}/?post_type=${type}&p=${id}`;

function compact(o: Row, keep: string[]): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(o)) {
    if (keep.includes(k) || !(v === '' || v === '0' || v === null || v === undefined || v === false || (Array.isArray(v) && !v.length))) out[k] = v;
  }
  return out;
}

/** Author, status and the four dates, as every post kind lists them (in this key order). */
function postDates(p: Row): Row {
  return {
    author: String(p.authorId ?? 0),
    status: p.status,
    date: p.date,
    date_utc: p.dateUtc ?? ZERO,
    modified: p.modified,
    modified_utc: p.modifiedUtc,
  };
}

function linked(u: Urls, p: Row, kind: 'venue' | 'organizer'): Row {
  const gid = `${u.host}?id=${p.id}`;
  const common: Row = {
    id: p.id,
    ...postDates(p),
    url: postUrl(u, kind, `cal_${kind}`, p.id, p.status, p.slug),
    [kind]: p.name,
    description: autop(p.content),
    excerpt: autop(p.excerpt),
    slug: p.slug ?? '',
    image: image(p.image),
  };
  if (kind === 'venue') {
    Object.assign(common, {
      address: p.address, city: p.city, country: p.country, province: p.province, state: p.state, zip: p.zip, phone: p.phone,
      website: p.website, stateprovince: p.stateprovince, geo_lat: p.latitude, geo_lng: p.longitude,
      show_map: p.showMap ?? true, show_map_link: p.showMapLink ?? true,
    });
  } else Object.assign(common, { phone: p.phone, website: p.website, email: p.email });
  common.global_id = gid;
  common.global_id_lineage = [gid];
  return compact(common, ['show_map', 'show_map_link', 'global_id', 'global_id_lineage']);
}

function term(u: Urls, t: Row, taxonomy: 'cal_events_cat' | 'post_tag') {
  const coll = taxonomy === 'post_tag' ? 'tags' : 'categories';
  const urls: Row = { self: `${u.ns}/${coll}/${t.id}`, collection: `${u.ns}/${coll}` };
  if (t.parent) urls.up = `${u.ns}/${coll}/${t.parent}`;
  return { name: t.name, slug: t.slug, term_group: 0, term_taxonomy_id: t.id, taxonomy, description: t.description, parent: t.parent ?? 0, count: t.count, filter: 'raw', id: t.id, urls };
}

function event(u: Urls, e: Row): Row {
  const gid = `${u.host}?id=${e.id}`;
  const url = postUrl(u, 'event', 'cal_events', e.id, e.status, e.slug);
  const venues = (e.venues as Row[]).map((v) => linked(u, v, 'venue'));
  const locked = e.hasPassword;
  const cost = costText(e);
  return {
    id: e.id,
    global_id: gid,
    global_id_lineage: [gid],
    ...postDates(e),
    url,
    rest_url: `${u.ns}/events/${e.id}`,
    title: e.title,
    description: locked ? '' : autop(e.content),
    excerpt: locked ? '' : autop(e.excerpt),
    slug: e.slug ?? '',
    image: locked ? false : image(e.image),
    all_day: e.allDay,
    start_date: e.startLocal,
    start_date_details: details(e.startLocal),
    end_date: e.endLocal,
    end_date_details: details(e.endLocal),
    utc_start_date: e.startUtc,
    utc_start_date_details: details(e.startUtc),
    utc_end_date: e.endUtc,
    utc_end_date_details: details(e.endUtc),
    timezone: e.timezone,
    timezone_abbr: tzAbbr(e.timezone, e.startLocal),
    cost: locked ? '' : cost,
    cost_details: {
      currency_symbol: e.currencySymbol,
      currency_code: e.currencyCode,
      currency_position: e.currencyPosition,
      values: (e.cost as string[]).map((s) => (/^\d/.test(s) ? s : s.toLowerCase())).sort((a, b) => Number(a) - Number(b)),
    },
    website: locked ? '' : (e.website ?? url),
    show_map: e.showMap ?? true,
    show_map_link: e.showMapLink ?? true,
    hide_from_listings: e.hideFromListings,
    sticky: e.sticky,
    featured: e.featured,
    categories: locked ? [] : (e.categories as Row[]).map((t) => term(u, t, 'cal_events_cat')),
    tags: locked ? [] : (e.tags as Row[]).map((t) => term(u, t, 'post_tag')),
    venue: locked ? [] : venues.length === 1 ? venues[0] : venues,
    organizer: locked ? [] : (e.organizers as Row[]).map((o) => linked(u, o, 'organizer')),
  };
}

/** PHP `json_encode` escaping, as the product sends it. */
const wpJson = (data: unknown) =>
  JSON.stringify(data).replace(/[/\u007f-\uffff]/g, (c) => (c === '/' ? '\\/' : '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')));

/** The list's default window (contract §5.5), as the product computes it. */
export function defaultWindow(now: Date): [string, string] {
  const startRaw = DateTime.fromJSDate(now, { zone: 'utc' }).startOf('day').minus({ minutes: 1 }).setZone(SITE_TZ);
  // Non-strict: the raw site-local text is read back as a UTC date → beginning / end of that day.
  const start = `${startRaw.toFormat('yyyy-MM-dd')} 00:00:00`;
  const end = `${DateTime.fromJSDate(now, { zone: 'utc' }).plus({ months: 24 }).toFormat('yyyy-MM-dd')} 23:59:59`;
  return [start, end];
}

/* ---------------------------------------------------------------------------------------- server */

async function main() {
  const db = await openDb();
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path === '/readyz') {
      await db.ping();
      ctx.set('X-SQL-Queries', '1');
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.method !== 'GET' || ctx.path.replace(/\/+$/, '') !== '/wp-json/cal/events/v1/events') {
      ctx.status = 404;
      ctx.body = { code: 'rest_no_route' };
      return;
    }
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Number(ctx.query.per_page ?? PER_PAGE) || PER_PAGE));
    const page = Math.max(1, Number(ctx.query.page ?? 1) || 1);
    const [start, end] = defaultWindow(new Date());
    const [rows, count] = await Promise.all([db.run('page', perPage, [start, end, (page - 1) * perPage]), db.run('total', perPage, [start, end])]);
    const distinct = (key: 'categories' | 'tags') => [...new Set(rows.flatMap((r) => (r[key] as Row[]).map((t) => t.id as number)))];
    const counts = new Map<string, number>();
    for (const c of await db.run('terms', perPage, [distinct('categories'), distinct('tags')])) counts.set(`${c.k}${c.id}`, c.n);
    for (const r of rows) {
      for (const t of r.categories as Row[]) t.count = counts.get(`c${t.id}`) ?? 0;
      for (const t of r.tags as Row[]) t.count = counts.get(`t${t.id}`) ?? 0;
    }
    const total = count[0].n as number;
    const totalPages = Math.ceil(total / perPage);
    const home = `${ctx.protocol}://${ctx.host}`;
    const u: Urls = { home, ns: `${home}/wp-json/cal/events/v1`, host: ctx.hostname };
    const base = `${u.ns}/events/`;
    const form = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
    const query = `per_page=${perPage}&start_date=${form(start)}&end_date=${form(end)}&status=publish`;
    const body: Row = { events: rows.map((r) => event(u, r)), rest_url: `${base}?page=${page}&${query.replace(/\+/g, ' ').replace(/%3A/g, ':')}` };
    if (page < totalPages) body.next_rest_url = `${base}?${query}&page=${page + 1}`;
    if (page > 1) body.previous_rest_url = `${base}?${query}${page > 2 ? `&page=${page - 1}` : ''}`;
    body.total = total;
    body.total_pages = totalPages;
    ctx.set('X-TEC-Total', String(total));
    ctx.set('X-TEC-TotalPages', String(totalPages));
    ctx.set('X-SQL-Queries', '3');
    ctx.type = 'application/json; charset=UTF-8';
    ctx.body = wpJson(body);
  });

  const server = app.listen(PORT, HOST);
  server.keepAliveTimeout = 65_000;
  const stop = () => {
    server.close();
    server.closeIdleConnections();
    void db.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
