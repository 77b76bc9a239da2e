/**
 * CSRF on REST writes. A browser sends form, multipart and query-string-only
 * POSTs (and, once a page may script it, any method) cross-site, with the user's Basic
 * credentials. A credentialed write whose `Origin` is neither the server's own nor listed in
 * CAL_CORS_ORIGINS (or, without an Origin, whose `Sec-Fetch-Site` is `cross-site`) is refused with
 * a 403 in the contract's error shape; clients that send no Origin (server-side WordPress
 * clients) are unaffected. Against the real server over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type RequestOptions, type TestResponse, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { CAL_CORS_ORIGINS: 'https://app.example' } });
});
afterAll(async () => {
  await s?.close();
});

const EVIL = 'https://evil.example';
const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const multipart = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

function expectRefused(r: TestResponse) {
  expect(r.status, r.text).toBe(403);
  expect(r.body).toMatchObject({ code: 'rest_cross_origin_write', message: expect.any(String), data: { status: 403 } });
}

async function tagNamed(name: string): Promise<number | undefined> {
  const r = await s.api(`/tags?hide_empty=false&slug=${encodeURIComponent(name)}`);
  return r.body.tags?.find((t: { name: string }) => t.name === name)?.id;
}

const write = (path: string, opts: RequestOptions) => s.api(path, { as: 'admin', method: 'POST', ...opts });

describe('credentialed writes from a foreign origin', () => {
  it('refuses form-encoded, multipart, query-string-only and JSON POSTs, and creates nothing', async () => {
    const cases: [string, RequestOptions][] = [
      ['form', { body: form({ name: 'csrf-form' }) }],
      ['multipart', { body: multipart({ name: 'csrf-multipart' }) }],
      ['query', {}],
      ['json', { body: { name: 'csrf-json' } }],
    ];
    for (const [kind, opts] of cases) {
      const path = kind === 'query' ? '/tags?name=csrf-query' : '/tags';
      expectRefused(await write(path, { ...opts, headers: { Origin: EVIL } }));
    }
    for (const name of ['csrf-form', 'csrf-multipart', 'csrf-query', 'csrf-json']) expect(await tagNamed(name)).toBeUndefined();
  });

  it('refuses updates and deletes (PUT, PATCH, DELETE, and POST with _method), and changes nothing', async () => {
    const tag = await s.create('/tags', { name: 'csrf-target' });
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expectRefused(await write(`/tags/${tag.id}?name=renamed&force=true`, { method, headers: { Origin: EVIL } }));
    }
    expectRefused(await write(`/tags/${tag.id}?_method=DELETE&force=true`, { headers: { Origin: EVIL } }));
    expect((await s.api(`/tags/${tag.id}`)).body.name).toBe('csrf-target');
  });

  it('refuses `Origin: null` and `Sec-Fetch-Site: cross-site` without an Origin', async () => {
    expectRefused(await write('/tags', { body: form({ name: 'csrf-null' }), headers: { Origin: 'null' } }));
    expectRefused(await write('/tags', { body: form({ name: 'csrf-fetch-site' }), headers: { 'Sec-Fetch-Site': 'cross-site' } }));
    // A look-alike of an allowed origin is foreign too.
    expectRefused(await write('/tags', { body: form({ name: 'csrf-lookalike' }), headers: { Origin: 'https://app.example.evil.example' } }));
  });

  it('refuses on language-variant routes (in the language) and on ?rest_route=', async () => {
    const fr = await s.request('/fr/wp-json/cal/events/v1/tags', { as: 'admin', method: 'POST', body: form({ name: 'csrf-fr' }), headers: { Origin: EVIL } });
    expectRefused(fr);
    const en = await write('/tags', { headers: { Origin: EVIL } });
    expect(fr.body.message).not.toBe(en.body.message);
    const plain = await s.request('/?rest_route=/cal/events/v1/tags', { as: 'admin', method: 'POST', body: form({ name: 'csrf-plain' }), headers: { Origin: EVIL } });
    expectRefused(plain);
    expect(await tagNamed('csrf-fr')).toBeUndefined();
    expect(await tagNamed('csrf-plain')).toBeUndefined();
  });
});

describe('what still works', () => {
  it('writes without an Origin (server-side clients), from the server itself and from listed origins', async () => {
    expect((await write('/tags', { body: form({ name: 'no-origin' }) })).status).toBe(201);
    expect((await write('/tags', { body: form({ name: 'same-origin' }), headers: { Origin: s.base, 'Sec-Fetch-Site': 'same-origin' } })).status).toBe(201);
    expect((await write('/tags', { body: { name: 'listed-origin' }, headers: { Origin: 'https://app.example', 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(201);
    expect((await write('/tags', { body: form({ name: 'direct' }), headers: { 'Sec-Fetch-Site': 'none' } })).status).toBe(201);
    for (const name of ['no-origin', 'same-origin', 'listed-origin', 'direct']) expect(await tagNamed(name)).toBeGreaterThan(0);
  });

  it('reads from a foreign origin, signed in or not, and anonymous writes get their usual answer', async () => {
    const read = await s.api('/tags', { as: 'admin', headers: { Origin: EVIL } });
    expect(read.status).toBe(200);
    expect((await s.api('/events', { headers: { Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(200);
    const anonymous = await s.api('/tags', { method: 'POST', body: form({ name: 'anon' }), headers: { Origin: EVIL } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).not.toBe('rest_cross_origin_write');
  });
});
