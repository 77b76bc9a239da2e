/**
 * Whether the client's copy of an answer is current, so that a GET or HEAD answers 304: by
 * `If-None-Match` when the request has one, with the weak comparison of RFC 9110 §13.1.2 (`W/`
 * ignored on both sides; `*` matches any current answer); otherwise by `If-Modified-Since` against
 * the answer's `Last-Modified` (an HTTP date), when it has one.
 *
 * By hand: Koa's `ctx.fresh` answers "stale" whenever the request says `Cache-Control: no-cache`,
 * which fetch() adds to every conditional request. Every route that answers 304 asks here: the
 * cache policy and the byte cache (their weak ETags), the iCal feeds and the uploads (their own).
 */
export function notModified(request: { get(field: string): string }, etag: string, lastModified: string | null): boolean {
  const inm = request.get('If-None-Match');
  if (inm) {
    const opaque = etag.replace(/^W\//, '');
    return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
  }
  const ims = Date.parse(request.get('If-Modified-Since'));
  return lastModified !== null && Number.isFinite(ims) && Date.parse(lastModified) <= ims;
}
