/** Issue 14 item 1: duplicate detection of venues and organizers ignores case, as MySQL's collation does. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('case-insensitive duplicate detection', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reuses a venue whose name and description match ignoring case, also with address fields in lower case', async () => {
    const first = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'A venue X', description: 'A venue description', city: 'Boston', zip: 'AB1' } });
    expect(first.status, first.text).toBe(201);
    const again = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'a venue x', description: 'a venue description' } });
    expect(again.body.id).toBe(first.body.id);
    const subset = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'a venue x', description: 'a venue description', city: 'boston' } });
    expect(subset.body.id).toBe(first.body.id);
    const other = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'a venue x', description: 'another description' } });
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('reuses an organizer the same way', async () => {
    const first = await server.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'An Organizer', description: 'Some Text' } });
    expect(first.status, first.text).toBe(201);
    const again = await server.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'AN ORGANIZER', description: 'some text' } });
    expect(again.body.id).toBe(first.body.id);
  });
});
