import { mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { openDatabase } from '../../src/db/database.ts';
import { changeLogFeed, createWebhookDispatcher, type RetryPolicy } from '../../src/services/webhook-delivery.ts';
import { pgliteTemplateImage, testBackend } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** A webhook receiver on loopback: answers with the queued statuses (then 200), keeps every request. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}
function receiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const status = statuses.shift() ?? 200;
      received.push({ headers: req.headers, body, status });
      // A little time in flight: two senders of one delivery would overlap here.
      setTimeout(() => {
        inFlight--;
        res.writeHead(status).end();
      }, 20);
    });
  });
  return {
    received,
    statuses,
    get maxInFlight() {
      return maxInFlight;
    },
    server,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    listen: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const ADD = `mutation ($input: AddWebhookEndpointInput!) {
  addWebhookEndpoint(input: $input) {
    __typename
    ... on AddWebhookEndpointSuccess { webhookEndpoint { id databaseId url secret types actions enabled } }
    ... on Error { message code }
  }
}`;
const DELIVERIES = `{
  webhookEndpoints {
    __typename
    ... on QueryWebhookEndpointsSuccess {
      data { id databaseId enabled disabledReason failingSince
        deliveries(first: 50) { id databaseId webhookId type status attemptCount payload attempts { statusCode error } } }
    }
  }
}`;

interface DeliveryView {
  id: string;
  databaseId: number;
  webhookId: string;
  type: string;
  status: string;
  attemptCount: number;
  payload: string;
  attempts: { statusCode: number | null; error: string | null }[];
}
interface EndpointView {
  id: string;
  databaseId: number;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  deliveries: DeliveryView[];
}

let s: TestServer;
const hook = receiver();
/** Short retries: the schedule's shape, not its length, is under test. */
const FAST: RetryPolicy = { baseMs: 30, maxMs: 100, giveUpAfterMs: 3 * 86_400_000, disableAfterMs: 3 * 86_400_000 };

beforeAll(async () => {
  await hook.listen();
  s = await startTestServer({ now: null, env: { CAL_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', CAL_WEBHOOK_RETRY_BASE_MS: '30', CAL_WEBHOOK_RETRY_MAX_MS: '100' } });
});
afterAll(async () => {
  await s?.close();
  await hook.close();
});
beforeEach(async () => {
  await s.reset();
  hook.received.length = 0;
  hook.statuses.length = 0;
});

async function addEndpoint(input: Record<string, unknown> = {}) {
  const r = await s.graphql(ADD, { input: { url: hook.url(), ...input } });
  expect(r.data.addWebhookEndpoint.__typename).toBe('AddWebhookEndpointSuccess');
  return r.data.addWebhookEndpoint.webhookEndpoint as { id: string; databaseId: number; secret: string };
}

async function endpoints(): Promise<EndpointView[]> {
  const r = await s.graphql(DELIVERIES);
  expect(r.errors).toBeUndefined();
  return r.data.webhookEndpoints.data;
}

/** Runs dispatcher passes until `done` holds (retries wait their schedule). */
async function until(done: () => boolean | Promise<boolean>, pass: () => Promise<void> = () => s.webhooks.runOnce(), tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    await pass();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error('webhook deliveries did not arrive');
}

const payloadOf = (r: Received) => JSON.parse(r.body) as { type: string; timestamp: string; data: { cursor: string; kind: string; action: string; id: number; record: Record<string, unknown> | null } };

describe('webhook endpoints (GraphQL, administrators only)', () => {
  it('refuses callers who are not administrators', async () => {
    const editor = await s.graphql(ADD, { input: { url: hook.url() } }, 'editor');
    expect(editor.data.addWebhookEndpoint).toMatchObject({ __typename: 'ForbiddenError' });
    const list = await s.graphql(DELIVERIES, {}, 'author');
    expect(list.data.webhookEndpoints.__typename).toBe('ForbiddenError');
    const anonymous = await s.request('/graphql', { method: 'POST', body: { query: DELIVERIES } });
    expect(anonymous.body.data.webhookEndpoints.__typename).toBe('UnauthenticatedError');
  });

  it('puts endpoint URLs through the private-address guard of image imports', async () => {
    for (const url of ['http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://[::1]:8080/hook', 'http://192.168.0.10/']) {
      const r = await s.graphql(ADD, { input: { url } });
      expect(r.data.addWebhookEndpoint, url).toMatchObject({ __typename: 'ValidationError', code: 'WEBHOOK_URL_FORBIDDEN' });
    }
    const ftp = await s.graphql(ADD, { input: { url: 'ftp://example.org/hook' } });
    expect(ftp.data.addWebhookEndpoint).toMatchObject({ __typename: 'ValidationError', code: 'WEBHOOK_URL_FORBIDDEN' });
    // 127.0.0.1 is allowed here by CAL_WEBHOOK_ALLOWED_HOSTS only.
    const ok = await addEndpoint({ types: ['EVENT'], actions: ['CREATED', 'UPDATED'] });
    expect(ok.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });
});

describe('webhook deliveries', () => {
  it('signs every delivery per Standard Webhooks and carries the record in the REST JSON', async () => {
    const endpoint = await addEndpoint();
    const event = await s.create('/events', { title: 'Signed Concert', start_date: '2027-03-01 19:00', end_date: '2027-03-01 21:00' });
    await until(() => hook.received.length >= 1);
    const [got] = hook.received;
    const verified = new Webhook(endpoint.secret).verify(got!.body, got!.headers as Record<string, string>) as ReturnType<typeof payloadOf>;
    expect(verified.type).toBe('event.created');
    expect(verified.data).toMatchObject({ kind: 'EVENT', action: 'CREATED', id: event.id });
    // The record as GET /wp-json/cal/events/v1/events/<id> answers it.
    const rest = await s.api(`/events/${event.id}`, { as: 'admin' });
    expect(verified.data.record).toEqual(rest.body);
    // A forged body fails verification.
    expect(() => new Webhook(endpoint.secret).verify(got!.body.replace('Signed', 'Forged'), got!.headers as Record<string, string>)).toThrow();
    const [view] = await endpoints();
    expect(view!.deliveries[0]).toMatchObject({ webhookId: got!.headers['webhook-id'], status: 'DELIVERED', attemptCount: 1, attempts: [{ statusCode: 200 }] });
  });

  it('retries on an exponential schedule (500, then 200), with the same webhook-id', async () => {
    await addEndpoint();
    hook.statuses.push(500, 503);
    await s.create('/venues', { venue: 'Retry Hall' });
    await until(() => hook.received.some((r) => r.status === 200));
    expect(hook.received.map((r) => r.status)).toEqual([500, 503, 200]);
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [view] = await endpoints();
    expect(view!.deliveries[0]).toMatchObject({ status: 'DELIVERED', attemptCount: 3, attempts: [{ statusCode: 500 }, { statusCode: 503 }, { statusCode: 200 }] });
    expect(view!.failingSince).toBeNull();
  });

  it('delivers the changes of one record in order, even when its first delivery failed', async () => {
    await addEndpoint();
    hook.statuses.push(500);
    const event = await s.create('/events', { title: 'v0', start_date: '2027-04-01 10:00', end_date: '2027-04-01 11:00' });
    for (let i = 1; i <= 4; i++) {
      const r = await s.api(`/events/${event.id}`, { method: 'POST', as: 'admin', body: { title: `v${i}` } });
      expect(r.status).toBe(200);
    }
    await until(async () => (await endpoints())[0]!.deliveries.every((d) => d.status === 'DELIVERED') && hook.received.filter((r) => r.status === 200).length >= 5);
    const delivered = hook.received.filter((r) => r.status === 200).map(payloadOf);
    const cursors = delivered.map((p) => p.data.cursor);
    const [view] = await endpoints();
    // The log's order is the queue's (databaseId ascending); the receiver saw exactly that order.
    const queued = [...view!.deliveries].sort((a, b) => a.databaseId - b.databaseId).map((d) => JSON.parse(d.payload).data.cursor as string);
    expect(cursors).toEqual(queued);
    expect(delivered[0]!.data.action).toBe('CREATED');
    expect(delivered.at(-1)!.data.record).toMatchObject({ title: 'v4' });
  });

  it('names endpoints and deliveries by global IDs, and refuses an ID of another type', async () => {
    const endpoint = await addEndpoint();
    expect(decodeGlobalID(endpoint.id)).toEqual({ typename: 'WebhookEndpoint', id: String(endpoint.databaseId) });
    await s.create('/organizers', { organizer: 'First' });
    await s.create('/organizers', { organizer: 'Second' });
    await until(() => hook.received.length >= 2);
    const [view] = await endpoints();
    const [newer, older] = view!.deliveries;
    expect(decodeGlobalID(newer!.id)).toEqual({ typename: 'WebhookDelivery', id: String(newer!.databaseId) });
    // `before` pages by a delivery's global ID.
    const page = await s.graphql(
      `query ($before: ID) { webhookEndpoints { ... on QueryWebhookEndpointsSuccess { data { deliveries(before: $before) { id } } } } }`,
      { before: newer!.id },
    );
    expect(page.data.webhookEndpoints.data[0].deliveries).toEqual([{ id: older!.id }]);
    // An endpoint's ID where a delivery's is due (and the reverse) is the client's mistake, with its code.
    const REDELIVER = `mutation ($id: ID!) { redeliverWebhook(deliveryId: $id) { __typename ... on ValidationError { code field } } }`;
    expect((await s.graphql(REDELIVER, { id: endpoint.id })).data.redeliverWebhook).toEqual({ __typename: 'ValidationError', code: 'WRONG_KIND', field: 'deliveryId' });
    const REMOVE = `mutation ($id: ID!) { removeWebhookEndpoint(id: $id) { __typename ... on RemoveWebhookEndpointSuccess { webhookEndpoint { id } } ... on ValidationError { code field } } }`;
    expect((await s.graphql(REMOVE, { id: newer!.id })).data.removeWebhookEndpoint).toEqual({ __typename: 'ValidationError', code: 'WRONG_KIND', field: 'id' });
    expect((await s.graphql(REMOVE, { id: 'not-an-id' })).data.removeWebhookEndpoint).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
    expect((await s.graphql(REMOVE, { id: endpoint.id })).data.removeWebhookEndpoint).toEqual({ __typename: 'RemoveWebhookEndpointSuccess', webhookEndpoint: { id: endpoint.id } });
    expect(await endpoints()).toEqual([]);
  });

  it('redelivers a delivery on request, with its webhook-id', async () => {
    await addEndpoint();
    await s.create('/organizers', { organizer: 'Redelivered Org' });
    await until(() => hook.received.length >= 1);
    const [view] = await endpoints();
    const delivery = view!.deliveries[0]!;
    const r = await s.graphql(`mutation ($id: ID!) { redeliverWebhook(deliveryId: $id) { __typename ... on RedeliverWebhookSuccess { delivery { status } } } }`, { id: delivery.id });
    expect(r.data.redeliverWebhook).toEqual({ __typename: 'RedeliverWebhookSuccess', delivery: { status: 'PENDING' } });
    await until(() => hook.received.length >= 2);
    expect(hook.received.map((x) => x.headers['webhook-id'])).toEqual([delivery.webhookId, delivery.webhookId]);
    const [after] = await endpoints();
    expect(after!.deliveries[0]).toMatchObject({ status: 'DELIVERED', attemptCount: 2 });
  });

  it('honours the types and actions an endpoint asked for', async () => {
    await addEndpoint({ types: ['VENUE'], actions: ['CREATED'] });
    await s.create('/events', { title: 'Not wanted', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00' });
    const venue = await s.create('/venues', { venue: 'Wanted Hall' });
    await s.api(`/venues/${venue.id}`, { method: 'POST', as: 'admin', body: { venue: 'Wanted Hall 2' } });
    await until(() => hook.received.length >= 1);
    await s.webhooks.runOnce();
    expect(hook.received.map((r) => payloadOf(r).type)).toEqual(['venue.created']);
  });

  it('survives a restart: a queue left by a stopped instance is sent by the next, each delivery once', async () => {
    await addEndpoint();
    hook.statuses.push(500, 500, 500);
    for (let i = 0; i < 3; i++) await s.create('/venues', { venue: `Restart Hall ${i}` });
    // The first instance queues the changes, fails them all once, and stops.
    await s.webhooks.runOnce();
    expect(hook.received.slice(0, 3).map((r) => r.status)).toEqual([500, 500, 500]);
    // Two fresh instances over the same database, as after a restart of two processes.
    const fresh = () =>
      createWebhookDispatcher({ prisma: s.db.prisma, feed: changeLogFeed(s.db.prisma), present: () => Promise.resolve(null), policy: s.config.webhooks.urls, retry: FAST });
    const [a, b] = [fresh(), fresh()];
    await until(
      () => hook.received.filter((r) => r.status === 200).length >= 3,
      () => Promise.all([a.runOnce(), b.runOnce()]).then(() => {}),
    );
    await Promise.all([a.runOnce(), b.runOnce()]);
    const ok = hook.received.filter((r) => r.status === 200).map((r) => r.headers['webhook-id']);
    expect(ok).toHaveLength(3);
    expect(new Set(ok).size).toBe(3);
    const [view] = await endpoints();
    for (const d of view!.deliveries) expect(d.attempts.map((x) => x.statusCode)).toEqual([500, 200]);
  });

  it('prunes finished deliveries older than it keeps them, never pending ones', async () => {
    await addEndpoint();
    const dispatcher = (o: { now?: () => Date; retry?: RetryPolicy; policy?: { allowPrivate: boolean; allowedHosts: string[] } }) =>
      createWebhookDispatcher({
        prisma: s.db.prisma,
        feed: changeLogFeed(s.db.prisma),
        present: () => Promise.resolve(null),
        policy: o.policy ?? s.config.webhooks.urls,
        retry: o.retry ?? FAST,
        keepDays: 30,
        now: o.now,
      });
    // One delivered; then one failed and waiting a day for its retry (a success after it would
    // bring its retry forward: the endpoint answers again).
    const slow = dispatcher({ retry: { ...FAST, baseMs: 86_400_000, maxMs: 86_400_000 } });
    await s.create('/venues', { venue: 'Old Hall' });
    await slow.runOnce();
    hook.statuses.push(500);
    await s.create('/organizers', { organizer: 'Old Org' });
    await slow.runOnce();
    expect((await endpoints())[0]!.deliveries.map((d) => d.status).sort()).toEqual(['DELIVERED', 'PENDING']);
    // 31 days later: the delivered one is gone with its attempt; the pending one stays (its retry,
    // due by then, is refused by the address guard, and this dispatcher gives up only after a year).
    await dispatcher({
      now: () => new Date(Date.now() + 31 * 86_400_000),
      retry: { ...FAST, giveUpAfterMs: 365 * 86_400_000 },
      policy: { allowPrivate: false, allowedHosts: [] },
    }).runOnce();
    const [view] = await endpoints();
    expect(view!.deliveries.map((d) => d.status)).toEqual(['PENDING']);
    expect(view!.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([500, null]);
  });

  it('disables an endpoint that fails for too long, says why, and enables it again', async () => {
    const endpoint = await addEndpoint();
    hook.statuses.push(...Array<number>(1000).fill(500));
    await s.create('/venues', { venue: 'Failing Hall' });
    const strict = createWebhookDispatcher({
      prisma: s.db.prisma,
      feed: changeLogFeed(s.db.prisma),
      present: () => Promise.resolve(null),
      policy: s.config.webhooks.urls,
      retry: { ...FAST, disableAfterMs: 150 },
    });
    await until(async () => !(await endpoints())[0]!.enabled, () => strict.runOnce());
    const [view] = await endpoints();
    expect(view!.disabledReason).toMatch(/^Every delivery failed since .* \(last: HTTP 500\)\.$/);
    expect(view!.deliveries[0]!.status).toBe('PENDING');
    // Disabled: nothing is sent.
    const sent = hook.received.length;
    await new Promise((r) => setTimeout(r, 150));
    await strict.runOnce();
    expect(hook.received.length).toBe(sent);
    hook.statuses.length = 0;
    const enabled = await s.graphql(`mutation ($id: ID!) { enableWebhookEndpoint(id: $id) { __typename ... on EnableWebhookEndpointSuccess { webhookEndpoint { enabled disabledReason } } } }`, { id: endpoint.id });
    expect(enabled.data.enableWebhookEndpoint.webhookEndpoint).toEqual({ enabled: true, disabledReason: null });
    await until(() => hook.received.at(-1)?.status === 200);
    expect((await endpoints())[0]!.deliveries[0]!.status).toBe('DELIVERED');
  });
});

// The CLI runs on its embedded database (DATABASE_URL unset): the PostgreSQL project would repeat it.
describe.skipIf(testBackend === 'postgres')('cal webhook:add|list|remove', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cal-webhooks-'));
    const loadDataDir = await pgliteTemplateImage();
    if (loadDataDir) await (await openDatabase(undefined, { dataDir, loadDataDir })).close();
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });
  async function cal(args: string[], env: Record<string, string> = {}) {
    let stdout = '';
    let stderr = '';
    const base: NodeJS.ProcessEnv = { ...process.env, CAL_DATA_DIR: dataDir, ...env };
    delete base.DATABASE_URL;
    const code = await main(args, { out: (l) => (stdout += l + '\n'), err: (l) => (stderr += l + '\n'), env: base, readStdin: () => '' });
    return { code, stdout, stderr };
  }

  it('adds, lists and removes endpoints; refuses private URLs and unknown types', async () => {
    const refused = await cal(['webhook:add', '--url', 'http://127.0.0.1:9/hook']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/private, loopback or reserved/);
    const badType = await cal(['webhook:add', '--url', 'https://hooks.example/x', '--types', 'event,user']);
    expect(badType).toMatchObject({ code: 2 });
    expect(badType.stderr).toMatch(/--types: unknown "user"/);
    const added = await cal(['webhook:add', '--url', 'http://127.0.0.1:9/hook', '--types', 'event,venue', '--actions', 'deleted', '--json'], { CAL_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    expect(added.code).toBe(0);
    const endpoint = JSON.parse(added.stdout) as { id: number; secret: string; types: string[]; actions: string[] };
    expect(endpoint).toMatchObject({ types: ['EVENT', 'VENUE'], actions: ['DELETED'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const list = await cal(['webhook:list']);
    expect(list.stdout).toMatch(new RegExp(`^${endpoint.id}\\s+http://127\\.0\\.0\\.1:9/hook\\s+event,venue\\s+deleted\\s+0\\s+enabled$`, 'm'));
    expect(list.stdout).not.toContain(endpoint.secret);
    const removed = await cal(['webhook:remove', '--id', String(endpoint.id)]);
    expect(removed.stdout).toContain(`removed webhook endpoint ${endpoint.id}`);
    expect((await cal(['webhook:list'])).stdout.trim()).toBe('no webhook endpoints');
    expect((await cal(['webhook:remove', '--id', String(endpoint.id)])).code).toBe(1);
  });
});
