import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultSiteSettings, loadConfig } from '../../src/server/config.ts';
import { createContext, type Context } from '../../src/services/context.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import {
  DEFAULT_IMAGE_IMPORT,
  importImageFromUrl,
  inspectImage,
  sniffImageType,
  type ImageImportOptions,
} from '../../src/services/image-import.ts';
import { isForbiddenAddress } from '../../src/services/outbound-url.ts';
import { resolveImageRef } from '../../src/services/images.ts';
import { createEvent } from '../../src/services/events.ts';
import { createLinkedPost } from '../../src/services/linked-posts.ts';
import { createTestDatabase, testBackend, type TestDatabase } from '../helpers/database.ts';

// Fake DNS for `*.test` names, all pointing at loopback: only 127.0.0.1 is ever contacted. A name
// the system resolver does not know proves the download dials the address we checked (pinned).
const fakeDns = vi.hoisted(() => ({ 'images.test': '127.0.0.1', 'intranet.test': '127.0.0.1' }) as Record<string, string>);
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = async (host: string, opts: object) => {
    const address = fakeDns[host];
    if (address) return [{ address, family: 4 }];
    return actual.lookup(host, opts as never);
  };
  return { ...actual, lookup, default: { ...actual, lookup } };
});

// ---------------------------------------------------------------------------------------------
// Tiny images, generated here

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A valid RGB PNG of the given size (solid orange). */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, RGB, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([255, 128, 0]))]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A valid baseline grayscale JPEG (uniform mid-gray): every 8×8 block is "DC difference 0, end of
 * block", each coded with a one-bit Huffman code.
 */
function makeJpeg(width: number, height: number): Buffer {
  const segment = (marker: number, data: number[]) => {
    const len = data.length + 2;
    return [0xff, marker, len >> 8, len & 0xff, ...data];
  };
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = '00'.repeat(blocks).padEnd(Math.ceil((blocks * 2) / 8) * 8, '1');
  const scan = (bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)).flatMap((b) => (b === 0xff ? [0xff, 0x00] : [b]));
  const oneCode = [1, ...Array(15).fill(0)]; // one code of length 1
  return Buffer.from([
    0xff, 0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0x00, ...Array(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, ...oneCode, 0x00]),
    ...segment(0xc4, [0x10, ...oneCode, 0x00]),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff, 0xd9,
  ]);
}

const GIF_1x1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const PNG = makePng(3, 2);
const JPEG = makeJpeg(5, 3);
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

// ---------------------------------------------------------------------------------------------
// Local image server (127.0.0.1 only)

let server: http.Server;
let base: string;
let port: number;
const hits = new Map<string, number>();
/** `/gated.png` answers once `openGate` is called; `gateReached` is called when it is asked for. */
let gate: Promise<void> = Promise.resolve();
let openGate = () => {};
let gateReached: (() => void) | undefined;
const hostHeaders: string[] = [];

const send = (type: string | null, body: Buffer | string) => (_req: IncomingMessage, res: ServerResponse) => {
  if (type) res.setHeader('content-type', type);
  res.end(body);
};
const redirect = (location: () => string, status = 302) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { location: location() }).end();
};

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/photos/sunset.png': send('image/png', PNG),
  '/photos/Caf%C3%A9%20night.jpg': send('application/octet-stream', JPEG),
  '/photos/mislabelled.jpg': send('image/jpeg', PNG),
  '/anim.gif': send('image/gif; charset=binary', GIF_1x1),
  '/page.html': send('text/html; charset=utf-8', '<!doctype html><html><body>hello</body></html>'),
  '/fake.png': send('image/png', '<!doctype html><html><body>not really</body></html>'),
  '/logo.svg': send('image/svg+xml', SVG),
  '/logo-untyped': send(null, SVG),
  '/truncated.png': send('image/png', PNG.subarray(0, 20)),
  '/missing.png': (_req, res) => res.writeHead(404).end('no'),
  '/big-declared.png': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': 4096 });
    res.end(Buffer.concat([PNG, Buffer.alloc(4096 - PNG.length)]));
  },
  '/big-streamed.png': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' }); // chunked: no Content-Length
    res.write(PNG);
    const timer = setInterval(() => {
      if (res.destroyed || res.writableEnded) return clearInterval(timer);
      res.write(Buffer.alloc(500));
    }, 5);
  },
  '/hang.png': () => {}, // never answers
  '/stall.png': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length * 2 });
    res.write(PNG); // and never the rest
  },
  '/gated.png': (_req, res) => {
    gateReached?.();
    void gate.then(() => send('image/png', PNG)(_req, res));
  },
  '/slow.png': (_req, res) => {
    setTimeout(() => send('image/png', PNG)(_req, res), 150);
  },
  '/r1': redirect(() => `/r2`, 301),
  '/r2': redirect(() => `${base}/r3`, 307),
  '/r3': redirect(() => `${base}/photos/sunset.png`, 308),
  '/loop': redirect(() => `/loop`),
  '/to-intranet': redirect(() => `http://intranet.test:${port}/photos/sunset.png`),
  '/to-mapped': redirect(() => `http://[::ffff:127.0.0.1]:${port}/photos/sunset.png`),
  '/to-file': redirect(() => 'file:///etc/passwd'),
  '/no-location': (_req, res) => res.writeHead(302).end(),
};

async function startServer(): Promise<void> {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    hostHeaders.push(req.headers.host ?? '');
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
}

// ---------------------------------------------------------------------------------------------

let db: TestDatabase;
let ctx: Context;

beforeAll(async () => {
  db = await createTestDatabase();
  await startServer();
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
});

beforeEach(async () => {
  await db.reset();
  hits.clear();
  hostHeaders.length = 0;
  const user = await db.prisma.user.create({ data: { login: 'admin', role: 'ADMINISTRATOR', passwordHash: 'x' } });
  policy = { ...DEFAULT_IMAGE_IMPORT, allowPrivate: true };
  ctx = newContext(user.id);
});

/** The import policy of the next import (the test server is on loopback: allowPrivate by default). */
let policy: ImageImportOptions;
const newContext = (userId: number) =>
  createContext({ prisma: db.prisma, settings: defaultSiteSettings, viewer: { id: userId, login: 'admin', role: 'ADMINISTRATOR' }, imageImport: policy });

const importUrl = (url: string) => importImageFromUrl({ ...ctx, imageImport: policy }, new URL(url), 'image');

async function expectRefusal(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const error = await promise.then(
    () => expect.fail(`expected ${code}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({ code, field: 'image', httpStatus: 400 });
  if (message) expect((error as Error).message).toMatch(message);
  // A refused import leaves no trace.
  expect(await db.prisma.attachment.count()).toBe(0);
  expect(await db.prisma.post.count()).toBe(0);
}

describe('importImageFromUrl: success', () => {
  it('creates an attachment with mime type, dimensions, size and title', async () => {
    const url = `${base}/photos/sunset.png`;
    const id = await importUrl(url);
    const attachment = await db.prisma.attachment.findUniqueOrThrow({ where: { id } });
    // The file is kept here, so it outlives the old site: served under /wp-content/uploads/, dated as WordPress files uploads.
    expect(attachment).toMatchObject({
      url: expect.stringMatching(/^\/wp-content\/uploads\/\d{4}\/\d{2}\/sunset\.png$/),
      sourceUrl: url,
      mimeType: 'image/png',
      width: 3,
      height: 2,
      filesize: PNG.length,
      title: 'sunset',
      authorId: ctx.viewer!.id,
    });
    expect(await db.prisma.post.findUnique({ where: { id } })).toMatchObject({ type: 'ATTACHMENT' });
    const stored = await db.prisma.upload.findUniqueOrThrow({ where: { path: attachment.url.replace('/wp-content/uploads/', '') } });
    expect(Buffer.from(stored.bytes!).equals(PNG)).toBe(true);
    expect(stored).toMatchObject({ mimeType: 'image/png', size: PNG.length });
  });

  it('trusts the bytes over the Content-Type (octet-stream JPEG, PNG labelled JPEG); decodes the title', async () => {
    const jpeg = await db.prisma.attachment.findUniqueOrThrow({ where: { id: await importUrl(`${base}/photos/Caf%C3%A9%20night.jpg`) } });
    expect(jpeg).toMatchObject({ mimeType: 'image/jpeg', width: 5, height: 3, filesize: JPEG.length, title: 'Café night' });
    const png = await db.prisma.attachment.findUniqueOrThrow({ where: { id: await importUrl(`${base}/photos/mislabelled.jpg`) } });
    expect(png).toMatchObject({ mimeType: 'image/png', width: 3, height: 2 });
    const gif = await db.prisma.attachment.findUniqueOrThrow({ where: { id: await importUrl(`${base}/anim.gif`) } });
    expect(gif).toMatchObject({ mimeType: 'image/gif', width: 1, height: 1, title: 'anim' });
  });

  it('follows up to 3 redirects, re-checking each hop, and records the URL it was given', async () => {
    const id = await importUrl(`${base}/r1`);
    expect(await db.prisma.attachment.findUniqueOrThrow({ where: { id } })).toMatchObject({
      sourceUrl: `${base}/r1`,
      mimeType: 'image/png',
      title: 'r1',
    });
    expect(hits.get('/photos/sunset.png')).toBe(1);
  });

  it('connects to the address it resolved and checked (DNS pinning)', async () => {
    // `images.test` only exists in the fake resolver: had the HTTP client resolved the name
    // again itself, the connection would have failed.
    const id = await importUrl(`http://images.test:${port}/photos/sunset.png`);
    expect(await db.prisma.attachment.findUniqueOrThrow({ where: { id } })).toMatchObject({ width: 3, height: 2 });
    expect(hostHeaders).toEqual([`images.test:${port}`]);
  });
});

describe('reuse and concurrency', () => {
  it('reuses the attachment of an already imported URL (resolveImageRef)', async () => {
    const url = `${base}/photos/sunset.png`;
    const first = await resolveImageRef(ctx, url);
    const second = await resolveImageRef(ctx, ` ${url} `);
    expect(first).toEqual(expect.any(Number));
    expect(second).toBe(first);
    expect(await resolveImageRef(ctx, String(first))).toBe(first);
    expect(hits.get('/photos/sunset.png')).toBe(1);
    expect(await db.prisma.attachment.count()).toBe(1);
  });

  it('ends concurrent imports of the same URL with one attachment', async () => {
    const url = `${base}/slow.png`;
    const ids = await Promise.all([1, 2, 3, 4].map(() => importImageFromUrl(newContext(ctx.viewer!.id), new URL(url), 'image')));
    expect(new Set(ids).size).toBe(1);
    expect(await db.prisma.attachment.count()).toBe(1);
    expect(await db.prisma.post.count()).toBe(1);
    expect(hits.get('/slow.png')).toBe(4); // all downloaded; the unique sourceUrl settled it
    // …and through resolveImageRef too.
    const again = await Promise.all([1, 2].map(() => resolveImageRef(ctx, url)));
    expect(again).toEqual([ids[0], ids[0]]);
  });
});

describe('not an image', () => {
  it('refuses HTML by its Content-Type before reading it', async () => {
    await expectRefusal(importUrl(`${base}/page.html`), 'NOT_AN_IMAGE', /not a JPEG, PNG, GIF or WebP image.*text\/html/);
  });

  it('refuses HTML served as image/png (magic numbers), truncated images, SVG', async () => {
    await expectRefusal(importUrl(`${base}/fake.png`), 'NOT_AN_IMAGE');
    await expectRefusal(importUrl(`${base}/truncated.png`), 'NOT_AN_IMAGE', /damaged or incomplete/);
    await expectRefusal(importUrl(`${base}/logo.svg`), 'NOT_AN_IMAGE', /SVG/);
    await expectRefusal(importUrl(`${base}/logo-untyped`), 'NOT_AN_IMAGE', /SVG/);
  });

  it('reports HTTP errors and broken redirects as IMAGE_FETCH_FAILED', async () => {
    await expectRefusal(importUrl(`${base}/missing.png`), 'IMAGE_FETCH_FAILED', /HTTP 404/);
    await expectRefusal(importUrl(`${base}/loop`), 'IMAGE_FETCH_FAILED', /more than 3 times/);
    expect(hits.get('/loop')).toBe(4); // the first request and 3 redirects
    await expectRefusal(importUrl(`${base}/no-location`), 'IMAGE_FETCH_FAILED');
  });

  it('reports an unreachable server as IMAGE_FETCH_FAILED', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expectRefusal(importUrl(`http://127.0.0.1:${closedPort}/a.png`), 'IMAGE_FETCH_FAILED', /ECONNREFUSED/);
  });
});

describe('limits', () => {
  it('refuses an image larger than the limit, declared or streamed', async () => {
    policy = { ...DEFAULT_IMAGE_IMPORT, ...{ allowPrivate: true, maxBytes: 1024 } };
    await expectRefusal(importUrl(`${base}/big-declared.png`), 'IMAGE_TOO_LARGE', /larger than 1 KiB/);
    await expectRefusal(importUrl(`${base}/big-streamed.png`), 'IMAGE_TOO_LARGE');
    // Within the limit the same server still works.
    expect(await importUrl(`${base}/photos/sunset.png`)).toEqual(expect.any(Number));
  });

  it('gives up when the server does not answer in time', async () => {
    policy = { ...DEFAULT_IMAGE_IMPORT, ...{ allowPrivate: true, timeoutMs: 300 } };
    const started = Date.now();
    await expectRefusal(importUrl(`${base}/hang.png`), 'IMAGE_TIMEOUT', /300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('gives up when the body stalls', async () => {
    policy = { ...DEFAULT_IMAGE_IMPORT, ...{ allowPrivate: true, timeoutMs: 300 } };
    await expectRefusal(importUrl(`${base}/stall.png`), 'IMAGE_TIMEOUT');
  });
});

describe('SSRF protection (allowPrivate off)', () => {
  beforeEach(() => {
    policy = { ...DEFAULT_IMAGE_IMPORT, ...{ allowPrivate: false } };
  });

  it('refuses loopback addresses without contacting them', async () => {
    await expectRefusal(importUrl(`${base}/photos/sunset.png`), 'IMAGE_URL_FORBIDDEN', /private, loopback or reserved/);
    await expectRefusal(importUrl(`http://localhost:${port}/photos/sunset.png`), 'IMAGE_URL_FORBIDDEN');
    await expectRefusal(importUrl(`http://intranet.test:${port}/photos/sunset.png`), 'IMAGE_URL_FORBIDDEN');
    await expectRefusal(importUrl(`http://[::ffff:127.0.0.1]:${port}/photos/sunset.png`), 'IMAGE_URL_FORBIDDEN');
    await expectRefusal(importUrl(`http://[::1]:${port}/photos/sunset.png`), 'IMAGE_URL_FORBIDDEN');
    await expectRefusal(importUrl(`http://2130706433:${port}/photos/sunset.png`), 'IMAGE_URL_FORBIDDEN');
    expect(hits.size).toBe(0);
  });

  it('refuses a redirect to a private address (each hop is checked)', async () => {
    // The first host is explicitly allowed; the redirect targets are not.
    policy = { ...DEFAULT_IMAGE_IMPORT, ...{ allowPrivate: false, allowedHosts: ['127.0.0.1'] } };
    await expectRefusal(importUrl(`${base}/to-intranet`), 'IMAGE_URL_FORBIDDEN');
    await expectRefusal(importUrl(`${base}/to-mapped`), 'IMAGE_URL_FORBIDDEN');
    await expectRefusal(importUrl(`${base}/to-file`), 'IMAGE_URL_FORBIDDEN', /http or https/);
    expect(hits.get('/to-intranet')).toBe(1);
    expect(hits.get('/photos/sunset.png')).toBeUndefined();
  });

  it('refuses URLs with credentials', async () => {
    policy = { ...DEFAULT_IMAGE_IMPORT, ...{ allowPrivate: true } };
    await expectRefusal(importUrl(`http://user:secret@127.0.0.1:${port}/photos/sunset.png`), 'IMAGE_URL_FORBIDDEN');
    expect(hits.size).toBe(0);
  });

  it('takes allowPrivate from CAL_ALLOW_PRIVATE_IMAGE_URLS (validated config); refuses private addresses without it', async () => {
    expect(loadConfig({ CAL_ALLOW_PRIVATE_IMAGE_URLS: 'true' }).imageImport).toEqual({ ...DEFAULT_IMAGE_IMPORT, allowPrivate: true });
    expect(loadConfig({ CAL_ALLOW_PRIVATE_IMAGE_URLS: 'false' }).imageImport.allowPrivate).toBe(false);
    expect(loadConfig({}).imageImport).toEqual(DEFAULT_IMAGE_IMPORT);
    expect(() => loadConfig({ CAL_ALLOW_PRIVATE_IMAGE_URLS: 'maybe' })).toThrow(/CAL_ALLOW_PRIVATE_IMAGE_URLS/);
    // A context without a policy gets the default one: loopback refused.
    const plain = createContext({ prisma: db.prisma, settings: defaultSiteSettings, viewer: ctx.viewer });
    await expectRefusal(importImageFromUrl(plain, new URL(`${base}/photos/sunset.png`), 'image'), 'IMAGE_URL_FORBIDDEN');
  });
});

describe('address classification and sniffing (no network)', () => {
  it.each([
    '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'fec0::1',
    '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1',
    '2001:db8::1', 'not-an-ip',
  ])('forbids %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:0808:0808::1'])(
    'allows %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('recognises raster formats by magic numbers only', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(GIF_1x1)).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(Buffer.from(SVG))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  it('judges only the bytes it was given, even when they are a view into a larger buffer', () => {
    // Small Buffers share Node's pool: a truncated download can sit right before a complete copy.
    const pool = Buffer.concat([PNG, PNG]);
    const truncated = pool.subarray(0, 20);
    expect(() => inspectImage(truncated, 'image/png', 'image')).toThrow(/damaged or incomplete/);
    const second = pool.subarray(PNG.length);
    expect(inspectImage(second, 'image/png', 'image')).toEqual({ mimeType: 'image/png', width: 3, height: 2 });
  });
});

describe('a write that imports an image', () => {
  /**
   * A write is one transaction with its change-log rows; the image is downloaded before it begins,
   * so a slow image server holds no database connection (on the embedded database, the only one):
   * other work goes on meanwhile, and no transaction of this database is open.
   */
  it.each([
    ['an event, its own image and its new venue\'s', (image: string) =>
      createEvent(newContext(ctx.viewer!.id), { title: 'Gated', startDate: '2027-01-01 10:00', endDate: '2027-01-01 11:00', image, venues: [{ create: { name: 'Gated Hall', image } }] })],
    ['a venue', (image: string) => createLinkedPost(newContext(ctx.viewer!.id), 'VENUE', { name: 'Gated Venue', image })],
  ])('downloads it before its transaction: %s', async (_label, write) => {
    gate = new Promise((resolve) => (openGate = resolve));
    const reached = new Promise<void>((resolve) => (gateReached = resolve));
    const written = write(`${base}/gated.png`);
    await reached;
    const meanwhile = await Promise.race([
      db.prisma.post.count(),
      new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 5_000)),
    ]);
    expect(meanwhile).toBe(0);
    if (testBackend === 'postgres') {
      const [open] = await db.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
      expect(open!.n).toBe(0);
    }
    openGate();
    const id = await written;
    expect(hits.get('/gated.png')).toBe(1);
    const attachments = await db.prisma.attachment.findMany({ select: { id: true, sourceUrl: true } });
    expect(attachments).toEqual([{ id: expect.any(Number), sourceUrl: `${base}/gated.png` }]);
    expect(await db.prisma.post.findUniqueOrThrow({ where: { id } })).toBeTruthy();
  });

  it('a failed download is the write\'s refusal, with nothing written', async () => {
    const refused = createEvent(newContext(ctx.viewer!.id), { title: 'Missing', startDate: '2027-01-01 10:00', endDate: '2027-01-01 11:00', image: `${base}/missing.png` });
    await expect(refused).rejects.toMatchObject({ code: 'IMAGE_FETCH_FAILED', field: 'image' });
    expect(hits.get('/missing.png')).toBe(1);
    expect(await db.prisma.post.count()).toBe(0);
  });
});
