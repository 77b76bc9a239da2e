/** Issue 14 item 3: an image by URL needs `upload_files`; contributors get 400 on every post kind. */
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../helpers/server.ts';

describe('images from URLs need the right to upload files', () => {
  let server: TestServer;
  useTestServer((started) => (server = started));

  const url = 'https://images.example.com/poster.jpg';
  it.each([
    ['events', { title: 'E', start_date: '2026-12-05 19:00', end_date: '2026-12-05 20:00', image: url }],
    ['venues', { venue: 'V', image: url }],
    ['organizers', { organizer: 'O', image: url }],
  ])('a contributor creating %s with an image URL gets 400', async (resource, body) => {
    const r = await server.api(`/${resource}`, { method: 'POST', as: 'contributor', body });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({ code: expect.any(String), data: { status: 400 } });
  });
});
