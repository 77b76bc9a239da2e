/**
 * A fake The Events Calendar site to import from: the recorded samples answered in the plugin's
 * own `tribe/events/v1` namespace, on an ephemeral loopback port.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readSample } from './samples.ts';

const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };

/** The recorded list answers (events, venues, organizers, categories, tags) as the plugin's own site words them. */
export function tecLists(): Record<string, any> {
  const list = (name: string) => JSON.parse(JSON.stringify(readSample<{ response: { body: unknown } }>(`${name}.json`).response.body).split('cal/events/v1').join('tribe/events/v1'));
  return { events: list('GET_events'), venues: list('GET_venues'), organizers: list('GET_organizers'), categories: list('GET_categories'), tags: list('GET_tags') };
}

export interface TecSite {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The REST root an import reads: `<base>/wp-json/tribe/events/v1`. */
  root: string;
  /** Every request URL, in arrival order. */
  requested: string[];
  /** Takes the site away, open connections included (the old site is gone). */
  close(): Promise<void>;
}

/**
 * Answers `GET /wp-json/tribe/events/v1/<list>?…` with `lists[list]` (read at each request, so a
 * test may change them once it knows `base`), `files` by exact path, and anything else with
 * WordPress's `rest_no_route` 404.
 */
export async function startTecSite(lists: Record<string, unknown>, files: Record<string, { type: string; body: Buffer }> = {}): Promise<TecSite> {
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    requested.push(req.url!);
    const file = files[req.url!];
    if (file) return void res.writeHead(200, { 'Content-Type': file.type }).end(file.body);
    const m = /^\/wp-json\/tribe\/events\/v1\/(\w+)\?/.exec(req.url!);
    const body = m ? lists[m[1]!] : undefined;
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body ?? NO_ROUTE));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    root: `${base}/wp-json/tribe/events/v1`,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
