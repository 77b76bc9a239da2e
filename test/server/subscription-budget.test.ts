import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingChangeBus } from '../helpers/changes.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { subscribeSse } from '../helpers/sse.ts';
import { subscribeWs, wsClient } from '../helpers/ws.ts';

// The statement budget bounds one request's database work; a subscription lasts as long as its
// client stays, so each delivery reads within a budget of its own and the subscription is never
// ended for the changes it has already delivered.
const BUDGET = 20;
const CHANGES = 30;
let server: TestServer;
const { bus, settle, subscribers } = countingChangeBus();

beforeAll(async () => {
  server = await startTestServer({ now: null, changes: bus, env: { CAL_MAX_QUERIES_PER_REQUEST: String(BUDGET) } });
  settle();
});
afterAll(() => server?.close());

const QUERY = 'subscription($after: String) { eventChanged(after: $after) { cursor action event { title venues { name } organizers { name } } } }';

describe('a long-lived subscription under the statement budget', () => {
  it('delivers more changes than one budget allows, over SSE and graphql-ws, then resumes past them', async () => {
    const sse = await subscribeSse(server.base, QUERY.replace('($after: String)', '').replace('(after: $after)', ''));
    const socket = wsClient(server.base);
    const ws = subscribeWs(socket, QUERY);
    await expect.poll(subscribers, { timeout: 10_000 }).toBe(2);
    try {
      const titles: string[] = [];
      for (let i = 0; i < CHANGES; i++) {
        const res = await server.api('/events', {
          method: 'POST',
          as: 'admin',
          body: { title: `Night ${i}`, start_date: '2030-02-01 19:00:00', end_date: '2030-02-01 22:00:00', status: 'publish', venue: { venue: 'Grand Hall' } },
        });
        expect(res.status).toBe(201);
        titles.push(`Night ${i}`);
      }
      // The venue created with the first event is one change of another kind; events only here.
      const sseTitles: string[] = [];
      const wsTitles: string[] = [];
      let last = '';
      for (let i = 0; i < CHANGES; i++) {
        const s = await sse.next(10_000);
        expect(s.errors, JSON.stringify(s.errors)).toBeUndefined();
        sseTitles.push(s.data.eventChanged.event.title);
        const w = await ws.next(10_000);
        expect(w.errors).toBeUndefined();
        wsTitles.push(w.data.eventChanged.event.title);
        last = w.data.eventChanged.cursor;
      }
      expect(sseTitles).toEqual(titles);
      expect(wsTitles).toEqual(titles);

      // A replay longer than one budget: from before the first of them.
      const first = sse.received[0]!.data.data.eventChanged.cursor;
      expect(typeof first).toBe('string');
      const replay = subscribeWs(socket, QUERY, { after: first });
      for (let i = 1; i < CHANGES; i++) expect((await replay.next(10_000)).data.eventChanged.event.title).toBe(titles[i]);
      // Still live after it.
      await server.api('/events', { method: 'POST', as: 'admin', body: { title: 'After', start_date: '2030-02-02 19:00:00', end_date: '2030-02-02 22:00:00', status: 'publish' } });
      expect((await replay.next(10_000)).data.eventChanged.event.title).toBe('After');
      expect((await ws.next(10_000)).data.eventChanged.event.title).toBe('After');
      expect((await sse.next(10_000)).data.eventChanged.event.title).toBe('After');
      expect(last).not.toBe('');
      replay.close();
    } finally {
      sse.close();
      ws.close();
      await socket.dispose();
    }
  }, 120_000);
});
