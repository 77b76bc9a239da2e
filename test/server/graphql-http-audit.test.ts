/** GraphQL over HTTP conformance: every `graphql-http` server audit is `ok`, no warnings. */
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

it('passes every graphql-http server audit', async () => {
  const results = [];
  for (const audit of serverAudits({ url: `${s.base}/graphql` })) {
    const result = await audit.fn();
    results.push({ id: audit.id, name: audit.name, status: result.status, reason: 'reason' in result ? result.reason : undefined });
  }
  expect(results.length).toBeGreaterThan(20);
  expect(results.filter((r) => r.status !== 'ok')).toEqual([]);
});
