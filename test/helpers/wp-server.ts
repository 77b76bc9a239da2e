/**
 * Test helper: serve route definitions through `createWpRestDispatch()` and its Koa adapter in a
 * bare Koa app on an ephemeral port, and talk to it with `fetch`.
 */
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createWpRestDispatch, createWpRestMiddleware, type WpRestOptions } from '../../rest-facade/wp/mount.ts';

export interface WpTestServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  app: Koa;
  /** `fetch(base + path, init)` */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startWpTestServer(opts: WpRestOptions, setup?: (app: Koa) => void): Promise<WpTestServer> {
  const app = new Koa();
  setup?.(app);
  app.use(createWpRestMiddleware(createWpRestDispatch(opts)));
  app.use((ctx) => {
    ctx.status = 200;
    ctx.type = 'text/html';
    ctx.body = '<html>not the REST API</html>';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    app,
    fetch: (path, init) => fetch(base + path, init),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
