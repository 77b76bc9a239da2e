/**
 * WordPress discovery documents: the namespace index (`GET /wp-json/cal/events/v1`, §9.1) and the
 * REST root index (`GET /wp-json/`, REC).
 */
import { DateTime } from 'luxon';
import { routeIndexEntry, type CompiledRoute } from './route.ts';
import { NAMESPACE, type ArgEnv, type TFunction, type WpUrls } from './types.ts';

/** `{"namespace", "routes": {key: entry…}, "_links": {"up": [{href: restRoot}]}}`. */
export function namespaceIndex(
  routes: readonly CompiledRoute[],
  env: ArgEnv,
  t: TFunction,
  urls: WpUrls,
  namespace = NAMESPACE,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of routes) if (r.namespace === namespace) out[r.key] = routeIndexEntry(r, env, t, urls);
  return { namespace, routes: out, _links: { up: [{ href: urls.restRoot }] } };
}

/** WordPress `get_index()` shape, restricted to what this service knows. */
export function rootIndex(routes: readonly CompiledRoute[], env: ArgEnv, t: TFunction, urls: WpUrls): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const namespaces: string[] = [];
  for (const r of routes) {
    out[r.key] = routeIndexEntry(r, env, t, urls);
    if (r.namespace && !namespaces.includes(r.namespace)) namespaces.push(r.namespace);
  }
  const offsetMinutes = DateTime.fromJSDate(env.now).setZone(env.settings.siteTimezone).offset;
  return {
    name: env.settings.siteName ?? '',
    description: env.settings.siteDescription ?? '',
    url: urls.home,
    home: urls.home,
    gmt_offset: Number.isFinite(offsetMinutes) ? offsetMinutes / 60 : 0,
    timezone_string: env.settings.siteTimezone,
    namespaces,
    authentication: [],
    routes: out,
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}
