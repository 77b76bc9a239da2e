/**
 * A featured image imported from a WordPress site is copied here and served at
 * its WordPress path under this service's URL, so it outlives the old site; an image refused once
 * (a private address) is attached by the run that imports it. Also with CAL_UPLOADS_DIR.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { DEFAULT_IMAGE_IMPORT } from '../../src/services/image-import.ts';
import { resolveImageRef } from '../../src/services/images.ts';
import { storeUpload } from '../../src/services/uploads.ts';
import { importFromSource } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startTecSite, tecLists, type TecSite } from '../helpers/tec-site.ts';

const PNG = readFileSync(new URL('../fixtures/orange-4x4.png', import.meta.url));
const IMAGE_PATH = '/wp-content/uploads/2026/11/orange-4x4.png';
const quiet = createProgress({ write: () => true }, true);

/** The recorded samples, the first event with a featured image on the old site itself. */
const LISTS = tecLists();

let tec: TecSite;
let pictured: number;
const targets: TestServer[] = [];
let uploadsDir: string;

const run = (s: TestServer, allowPrivate: boolean, uploads?: string) =>
  importFromSource(
    createContext({ prisma: s.db.prisma, settings: defaultSiteSettings, imageImport: { ...DEFAULT_IMAGE_IMPORT, allowPrivate, uploadsDir: uploads } }),
    { from: tec.root, probeLimit: 0 },
    quiet,
  );

beforeAll(async () => {
  tec = await startTecSite(LISTS, { [IMAGE_PATH]: { type: 'image/png', body: PNG } });
  const first = LISTS.events.events[0];
  pictured = first.id;
  first.image = { url: tec.base + IMAGE_PATH, id: 9001, extension: 'png', width: 4, height: 4, filesize: PNG.length };
  uploadsDir = await mkdtemp(path.join(os.tmpdir(), 'cal-uploads-'));
}, 60_000);
afterAll(async () => {
  await tec?.close();
  for (const t of targets) await t.close();
  await rm(uploadsDir, { recursive: true, force: true });
});

describe('featured images of a WordPress import are kept and served here', { timeout: 300_000 }, () => {
  it('attaches the image on the run that imports it after a refusal, and serves it once the old site is gone', async () => {
    const target = await startTestServer({ now: null });
    targets.push(target);
    // The old site is on a private address: refused without CAL_ALLOW_PRIVATE_IMAGE_URLS.
    const refused = await run(target, false);
    expect(refused.images).toEqual({ imported: 0, failed: 1 });
    expect(refused.failures).toEqual([{ kind: 'event image', id: pictured, reason: expect.stringContaining('private') }]);
    expect((await target.api(`/events/${pictured}`, { as: 'admin' })).body.image).toBe(false);

    const allowed = await run(target, true);
    expect(allowed.images).toEqual({ imported: 1, failed: 0 });
    expect(allowed.kinds.events.updated).toBe(1);
    const again = await run(target, true);
    expect(again.images).toEqual({ imported: 0, failed: 0 });
    expect(again.kinds.events).toMatchObject({ created: 0, updated: 0, failed: 0 });

    // The old site goes away.
    await tec.close();

    const event = (await target.api(`/events/${pictured}`)).body;
    expect(event.image).toMatchObject({ url: target.base + IMAGE_PATH, id: 9001, width: 4, height: 4, extension: 'png' });
    expect(event.json_ld.image).toBe(target.base + IMAGE_PATH);
    const gql = await target.graphql(`{ event(id: ${pictured}) { ... on Event { image { url databaseId extension } } } }`);
    expect(gql.data.event.image).toEqual({ url: IMAGE_PATH, databaseId: 9001, extension: 'png' });
    const res = await fetch(target.base + IMAGE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    const head = await fetch(target.base + IMAGE_PATH, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG.length));
    expect((await fetch(target.base + IMAGE_PATH, { method: 'POST' })).status).toBe(405);
    // `image` given as the kept file's own URL (under CAL_SITE_URL) names that attachment: no download.
    const ctx = createContext({ prisma: target.db.prisma, settings: { ...defaultSiteSettings, siteUrl: 'https://cal.example' }, viewer: { id: target.users.admin, login: 'admin', role: 'ADMINISTRATOR' } });
    expect(await resolveImageRef(ctx, 'https://cal.example' + IMAGE_PATH)).toBe(9001);
  });

  it('keeps the files in CAL_UPLOADS_DIR when configured (the database keeps their metadata only)', async () => {
    const target = await startTestServer({ now: null, env: { CAL_UPLOADS_DIR: uploadsDir } });
    targets.push(target);
    // Stored from bytes as an earlier run would have: the image import writes the same way.
    const stored = await storeUpload({ prisma: target.db.prisma, imageImport: { ...DEFAULT_IMAGE_IMPORT, uploadsDir } }, '2026/11/orange-4x4.png', PNG, 'image/png');
    expect(stored).toBe('2026/11/orange-4x4.png');
    expect((await readFile(path.join(uploadsDir, '2026', '11', 'orange-4x4.png'))).equals(PNG)).toBe(true);
    expect((await target.db.prisma.upload.findUniqueOrThrow({ where: { path: stored } })).bytes).toBeNull();
    // Another file under the same name gets the next free variant, as WordPress does.
    const other = Buffer.concat([PNG, Buffer.from([0])]);
    expect(await storeUpload({ prisma: target.db.prisma, imageImport: { ...DEFAULT_IMAGE_IMPORT, uploadsDir } }, '2026/11/orange-4x4.png', other, 'image/png')).toBe('2026/11/orange-4x4-2.png');
    const res = await fetch(target.base + IMAGE_PATH);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(target.base + '/wp-content/uploads/2026/11/orange-4x4-2.png')).status).toBe(200);
  });
});
