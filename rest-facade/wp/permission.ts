/** Permission checks (§1.3 step 6) and the `Allow` header they decide. */
import { forbidden, isWpError, type WpError } from './errors.ts';
import type { CompiledRoute } from './route.ts';
import type { EndpointDef, HttpMethod, WpRequest } from './types.ts';

/** `true`, or the error to answer: the check's own WpError, else `rest_forbidden` (401/403). */
export async function checkPermission(endpoint: EndpointDef, req: WpRequest): Promise<true | WpError> {
  if (!endpoint.permission) return true;
  let r: unknown;
  try {
    r = await endpoint.permission(req);
  } catch (e) {
    if (!isWpError(e)) throw e;
    r = e;
  }
  if (r === true) return true;
  if (isWpError(r)) return r;
  return forbidden(req.user);
}

/** Methods of the route whose permission check passes for the caller (WordPress `Allow`). */
export async function allowedMethods(route: CompiledRoute, req: WpRequest, warn?: (obj: unknown, msg?: string) => void): Promise<string[]> {
  const out: string[] = [];
  for (const e of route.def.endpoints) {
    let ok = true;
    if (e.permission) {
      try {
        ok = (await e.permission({ ...req, method: e.methods[0] as HttpMethod, probe: true })) === true;
      } catch (err) {
        warn?.({ err }, 'wp-rest: permission check failed while computing Allow');
        ok = false;
      }
    }
    if (ok) for (const m of e.methods) if (!out.includes(m)) out.push(m);
  }
  return out;
}
