import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { DEFAULT_IMAGE_IMPORT } from '../../src/services/image-import.ts';
import { ensureAdmin } from '../../src/services/users.ts';
import { importFromSource, KINDS } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { pgliteTemplateImage, testBackend } from '../helpers/database.ts';
import { runCli } from '../helpers/process.ts';
import { ADMIN_LOGIN, passwordOf, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * `cal -- import` options and side paths: featured images (downloaded, or a reported failure),
 * `--prune`, `--dry-run`, and what the command prints (`--json`, the table, plain progress lines).
 */
const PNG = readFileSync(new URL('../fixtures/orange-4x4.png', import.meta.url));
const STATUSES = 'publish,future,draft,pending,private,trash';

let source: TestServer;
let images: http.Server;
let imageBase: string;
/** Image paths the image server answers 404 for. */
const gone = new Set<string>();
const ids: Record<string, number> = {};

const quiet = createProgress({ write: () => true }, true);
const ctxOf = (s: TestServer) => createContext({ prisma: s.db.prisma, settings: defaultSiteSettings, imageImport: { ...DEFAULT_IMAGE_IMPORT, allowPrivate: true } });
const sourceRoot = () => `${source.base}/wp-json/cal/events/v1`;
const importInto = (target: TestServer, extra: object = {}) =>
  importFromSource(ctxOf(target), { from: sourceRoot(), login: ADMIN_LOGIN, password: passwordOf(ADMIN_LOGIN), ...extra }, quiet);

/** Row counts of every table an import writes. */
async function counts(s: TestServer) {
  const p = s.db.prisma;
  return {
    posts: await p.post.count(),
    terms: await p.term.count(),
    attachments: await p.attachment.count(),
    mappings: await p.transferMapping.count(),
    links: (await p.eventVenue.count()) + (await p.eventOrganizer.count()) + (await p.eventCategory.count()) + (await p.eventTag.count()),
  };
}

beforeAll(async () => {
  images = http.createServer((req, res) => {
    if (gone.has(req.url!)) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length }).end(PNG);
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;

  // The image server is on loopback, which the SSRF guard refuses unless told otherwise (as in
  // test/services/image-import.test.ts).
  source = await startTestServer({ now: null, env: { CAL_ALLOW_PRIVATE_IMAGE_URLS: 'true' } });
  const post = async (kind: string, body: object) => {
    const r = await source.api(`/${kind}`, { method: 'POST', as: 'admin', body });
    expect(r.status, r.text).toBe(201);
    return r.body.id as number;
  };
  ids.music = await post('categories', { name: 'Music' });
  ids.tag = await post('tags', { name: 'Outdoor' });
  ids.hall = await post('venues', { venue: 'Main Hall', image: `${imageBase}/hall.png` });
  ids.park = await post('venues', { venue: 'Park' });
  ids.ann = await post('organizers', { organizer: 'Ann' });
  ids.pictured = await post('events', { title: 'Pictured', start_date: '2026-05-01 10:00', end_date: '2026-05-01 12:00', image: `${imageBase}/pictured.png`, venue: ids.hall, categories: [ids.music] });
  ids.broken = await post('events', { title: 'Broken picture', start_date: '2026-05-02 10:00', end_date: '2026-05-02 12:00', image: `${imageBase}/broken.png`, venue: ids.park, tags: [ids.tag] });
  ids.leaving = await post('events', { title: 'Leaving soon', start_date: '2026-05-03 10:00', end_date: '2026-05-03 12:00', organizer: [ids.ann] });
  ids.plain = await post('events', { title: 'Plain', start_date: '2026-05-04 10:00', end_date: '2026-05-04 12:00', status: 'draft' });
  // The source had the image and serves it itself; by the time of the import its file is lost.
  gone.add('/broken.png');
  expect((await source.db.prisma.upload.deleteMany({ where: { path: { endsWith: '/broken.png' } } })).count).toBe(1);
}, 120_000);
afterAll(async () => {
  images?.closeAllConnections();
  images?.close();
  await source?.close();
});

describe('import: images, --prune, --dry-run', { timeout: 180_000 }, () => {
  it('--dry-run counts what it would do and writes nothing', async () => {
    const target = await startTestServer({ now: null });
    try {
      const before = await counts(target);
      const summary = await importInto(target, { dryRun: true });
      expect(summary.kinds.events).toEqual({ created: 4, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
      expect(summary.kinds.venues.created).toBe(2);
      expect(summary.kinds.categories.created).toBe(1);
      expect(summary.images).toEqual({ imported: 0, failed: 0 });
      expect(await counts(target)).toEqual(before);
      expect(before.posts).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('downloads featured images through the image import; a dead image is reported, its record kept', async () => {
    const target = await startTestServer({ now: null });
    try {
      const summary = await importInto(target);
      expect(summary.kinds.events).toMatchObject({ created: 4, failed: 0 });
      expect(summary.kinds.venues).toMatchObject({ created: 2, failed: 0 });
      expect(summary.images).toEqual({ imported: 2, failed: 1 });
      expect(summary.failures).toEqual([{ kind: 'event image', id: ids.broken, reason: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/wp-content\/uploads\/\d{4}\/\d{2}\/broken\.png: /) }]);

      // Both services keep their copy, at the same path under their own URL.
      const pictured = (await target.api(`/events/${ids.pictured}`, { as: 'admin' })).body;
      const there = (await source.api(`/events/${ids.pictured}`, { as: 'admin' })).body;
      expect(there.image.url).toMatch(new RegExp(`^${source.base}/wp-content/uploads/\\d{4}/\\d{2}/pictured\\.png$`));
      expect(pictured.image).toMatchObject({ url: there.image.url.replace(source.base, target.base), id: there.image.id, width: 4, height: 4 });
      expect(Buffer.from(await (await fetch(pictured.image.url)).arrayBuffer()).equals(PNG)).toBe(true);
      expect((await target.api(`/venues/${ids.hall}`, { as: 'admin' })).body.image).toMatchObject({ url: expect.stringMatching(new RegExp(`^${target.base}/wp-content/uploads/\\d{4}/\\d{2}/hall\\.png$`)), width: 4 });
      const broken = (await target.api(`/events/${ids.broken}`, { as: 'admin' })).body;
      expect(broken.title).toBe('Broken picture');
      expect(broken.image).toBe(false);

      // Images already imported are not downloaded again; the dead one is tried again, still failing.
      const again = await importInto(target);
      expect(again.images).toEqual({ imported: 0, failed: 1 });
      expect(await target.db.prisma.attachment.count()).toBe(2);
    } finally {
      await target.close();
    }
  });

  it('--prune trashes local records that vanished at the source, and only with --prune', async () => {
    const target = await startTestServer({ now: null });
    try {
      await importInto(target);
      // Gone for good at the source: an event and a venue (trashed, then purged), a tag.
      expect((await source.api(`/events/${ids.leaving}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
      const purged = await source.graphql(`mutation($id: ID) { purgeEvent(id: $id) { __typename } }`, { id: ids.leaving });
      expect(purged.data).toEqual({ purgeEvent: { __typename: 'PurgeEventSuccess' } });
      expect((await source.api(`/venues/${ids.park}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
      const venue = await source.graphql(`mutation($id: ID) { purgeVenue(id: $id) { __typename } }`, { id: ids.park });
      expect(venue.data).toEqual({ purgeVenue: { __typename: 'PurgeVenueSuccess' } });
      expect((await source.api(`/tags/${ids.tag}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);

      const without = await importInto(target);
      expect(without.pruned).toBe(0);
      expect((await target.db.prisma.event.findUnique({ where: { id: ids.leaving } }))?.status).toBe('publish');

      const summary = await importInto(target, { prune: true });
      expect(summary.pruned).toBe(3);
      expect(summary.failures.filter((f) => !f.kind.endsWith('image'))).toEqual([]);
      expect((await target.db.prisma.event.findUnique({ where: { id: ids.leaving } }))?.status).toBe('trash');
      expect((await target.db.prisma.venue.findUnique({ where: { id: ids.park } }))?.status).toBe('trash');
      expect(await target.db.prisma.tag.findUnique({ where: { id: ids.tag } })).toBeNull();
      // Everything still at the source is untouched.
      const live = (await target.api(`/events?per_page=50&status=${STATUSES}&start_date=1900-01-01&end_date=2999-01-01`, { as: 'admin' })).body.events;
      expect(live.filter((e: { status: string }) => e.status !== 'trash').map((e: { id: number }) => e.id).sort()).toEqual([ids.pictured, ids.broken, ids.plain].sort());

      // Pruned once: the next run has nothing left to prune.
      expect((await importInto(target, { prune: true })).pruned).toBe(0);
    } finally {
      await target.close();
    }
  });
});

// The CLI imports into an embedded database in a temporary directory (DATABASE_URL unset) on
// either project: on PostgreSQL this would repeat the very same work, as in cli.test.ts.
describe.skipIf(testBackend === 'postgres')('cal -- import output', { timeout: 300_000 }, () => {
  let dataDir: string;
  const cal = (args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CAL_DATA_DIR: dataDir, CAL_ALLOW_PRIVATE_IMAGE_URLS: 'true' };
    delete env.DATABASE_URL;
    return runCli(['import', '--from', sourceRoot(), '--login', ADMIN_LOGIN, '--password', passwordOf(ADMIN_LOGIN), ...args], env);
  };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cal-import-out-'));
    // From the migrated empty database, as the built CLI does (not initdb and every migration).
    const db = await openDatabase(undefined, { dataDir, loadDataDir: await pgliteTemplateImage() });
    await applyMigrations(db);
    await ensureAdmin(db.prisma, 'owner', 'owner password');
    await db.close();
  }, 180_000);
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('--json: one JSON object on stdout, kinds × the five counts, failures with their reasons', async () => {
    const r = await cal(['--json', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]);
    expect(Object.keys(summary.kinds).sort()).toEqual(['categories', 'events', 'organizers', 'tags', 'venues']);
    for (const kind of KINDS) {
      expect(Object.keys(summary.kinds[kind]).sort(), kind).toEqual(['created', 'failed', 'skipped', 'unchanged', 'updated']);
      for (const n of Object.values(summary.kinds[kind])) expect(Number.isInteger(n)).toBe(true);
    }
    expect(summary.kinds.events.created).toBeGreaterThan(0);
    expect(Array.isArray(summary.failures)).toBe(true);
    expect(typeof summary.rate).toBe('number');
  });

  it('prints a table, the failures, the rate; progress as plain lines on a non-terminal; a dry run wrote nothing', async () => {
    const r = await cal([]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.split('\n');
    expect(out[0].split(/\s+/)).toEqual(['KIND', 'CREATED', 'UPDATED', 'UNCHANGED', 'SKIPPED', 'FAILED']);
    // The dry run before wrote nothing, so this run creates every record.
    const row = (kind: string) => out.find((l) => l.startsWith(kind))!.split(/\s+/).slice(1).map(Number);
    expect(row('events')[0]).toBeGreaterThan(0);
    expect(row('events').slice(1)).toEqual([0, 0, 0, 0]);
    expect(r.stdout).toMatch(/^[\d.]+ s, \d+ records\/s$/m);
    expect(r.stdout).toMatch(/^failed: event image \d+: .*broken\.png/m);
    // Not a TTY: no escape sequences, a plain "kind: done/total" line at least when each list is done.
    expect(r.stderr).not.toContain('\u001b[');
    for (const kind of KINDS) expect(r.stderr).toMatch(new RegExp(`^${kind}: (\\d+)/\\1$`, 'm'));
  });
});
