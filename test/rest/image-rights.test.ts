/** An image by URL needs `upload_files`; contributors get 400 on every post kind. */
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

describe('an image URL already imported still needs the right to upload', () => {
  let server: TestServer;
  useTestServer((started) => (server = started));

  it('a contributor naming a known attachment by URL gets 400; an author reuses it', async () => {
    const url = 'https://images.example.com/already-here.png';
    const post = await server.db.prisma.post.create({ data: { type: 'ATTACHMENT', attachment: { create: { url, mimeType: 'image/png' } } }, select: { id: true } });
    const body = { title: 'E', start_date: '2026-12-05 19:00', end_date: '2026-12-05 20:00', image: url };
    const refused = await server.api('/events', { method: 'POST', as: 'contributor', body });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.code).toBe('rest_invalid_param');
    const reused = await server.api('/events', { method: 'POST', as: 'author', body });
    expect(reused.status, reused.text).toBe(201);
    expect(reused.body.image.id).toBe(post.id);
  });
});
