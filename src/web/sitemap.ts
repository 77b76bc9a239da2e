/**
 * `sitemap.xml` (sitemaps.org 0.9) and `robots.txt`, as pure functions. `/sitemap.xml` is an index
 * of smaller sitemaps (the main views, then events, venues and organizers in pages of
 * SITEMAP_PAGE_SIZE), so it stays well under the protocol's 50,000 URLs and 50 MB per file
 * whatever the size of the calendar.
 */

/** URLs per sitemap file (the protocol allows 50,000; smaller files are cheaper to build and cache). */
export const SITEMAP_PAGE_SIZE = 1000;

export type SitemapKind = 'events' | 'venues' | 'organizers';
export const SITEMAP_KINDS: readonly SitemapKind[] = ['events', 'venues', 'organizers'];

export interface SitemapEntry {
  loc: string;
  /** ISO 8601 instant of the last change. */
  lastmod?: string | null;
  /** Language variants of this URL (`hreflang` → URL), `xhtml:link rel=alternate`. */
  alternates?: readonly { lang: string; href: string }[];
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** W3C datetime of an instant, to the second (`2027-03-13T19:00:00Z`). */
function w3c(instant: string): string | null {
  const ms = Date.parse(instant);
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : null;
}

/** A `<urlset>` of the entries. */
export function sitemapXml(entries: readonly SitemapEntry[]): string {
  const withAlternates = entries.some((e) => e.alternates?.length);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${withAlternates ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : ''}>`,
  ];
  for (const e of entries) {
    const lastmod = e.lastmod ? w3c(e.lastmod) : null;
    const alternates = (e.alternates ?? []).map((a) => `<xhtml:link rel="alternate" hreflang="${xmlEscape(a.lang)}" href="${xmlEscape(a.href)}"/>`).join('');
    lines.push(`<url><loc>${xmlEscape(e.loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${alternates}</url>`);
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}

/** A `<sitemapindex>` of sitemap files. */
export function sitemapIndexXml(files: readonly SitemapEntry[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
  for (const f of files) {
    const lastmod = f.lastmod ? w3c(f.lastmod) : null;
    lines.push(`<sitemap><loc>${xmlEscape(f.loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`);
  }
  lines.push('</sitemapindex>', '');
  return lines.join('\n');
}

/** Path of one sitemap file: `/sitemap-main.xml`, `/sitemap-events-2.xml`. */
export function sitemapPath(kind: SitemapKind | 'main', page = 1): string {
  return kind === 'main' ? '/sitemap-main.xml' : `/sitemap-${kind}-${page}.xml`;
}

/** Parses a sitemap file name back (`sitemap-events-2.xml` → events, 2); null for anything else. */
export function parseSitemapName(name: string): { kind: SitemapKind | 'main'; page: number } | null {
  if (name === 'sitemap-main.xml') return { kind: 'main', page: 1 };
  const m = /^sitemap-(events|venues|organizers)-([1-9]\d{0,5})\.xml$/.exec(name);
  if (!m) return null;
  return { kind: m[1] as SitemapKind, page: Number(m[2]) };
}

/** Number of sitemap files a list of `total` records takes (at least one, possibly empty, file per kind). */
export function sitemapPages(total: number): number {
  return Math.max(1, Math.ceil(total / SITEMAP_PAGE_SIZE));
}

/**
 * `robots.txt`: everything public may be crawled but the APIs and the feeds' query forms (they
 * repeat the pages' content); the sitemap index is named.
 */
export function robotsTxt(sitemapUrl: string): string {
  return ['User-agent: *', 'Disallow: /wp-json/', 'Disallow: /*/wp-json/', 'Disallow: /graphql', 'Disallow: /*?ical=1', 'Disallow: /*&ical=1', 'Allow: /', '', `Sitemap: ${sitemapUrl}`, ''].join('\n');
}
