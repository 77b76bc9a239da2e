import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The private-network guard of every request this service makes to a URL someone gave it (image
 * imports, webhook deliveries): http(s) only, no credentials in the URL, and the host's addresses
 * all public unless the policy lifts the check; the request is then pinned to the checked
 * addresses (`pinnedLookup`), so a DNS answer that changes between check and connect cannot
 * point it elsewhere.
 */
export interface OutboundPolicy {
  /** Allow URLs that resolve to loopback, private, link-local… addresses. */
  allowPrivate: boolean;
  /** Host names (or IP literals) exempt from the address check, e.g. an internal media server. */
  allowedHosts: readonly string[];
}

/** The guard's default: public addresses only. */
export const PUBLIC_ONLY: OutboundPolicy = { allowPrivate: false, allowedHosts: [] };

/** Why a URL was refused; each caller words it for its own field and error code. */
export class OutboundRefusal extends Error {
  constructor(
    readonly reason: 'scheme' | 'credentials' | 'unresolved' | 'private',
    readonly host: string,
  ) {
    super(
      {
        scheme: 'the URL must use http or https',
        credentials: 'the URL must not contain a user name or password',
        unresolved: `the host ${host} could not be resolved`,
        private: 'the URL points to a private, loopback or reserved network address',
      }[reason],
    );
  }
}

/**
 * Whether an IP address is outside the public unicast space: loopback, private (RFC 1918),
 * link-local (incl. cloud metadata 169.254.169.254), CGNAT, reserved/documentation, multicast,
 * broadcast, unspecified; IPv6 unique-local, link-local, site-local, multicast, and IPv4 addresses
 * embedded in IPv6 (mapped, translated, NAT64, 6to4) judged by their IPv4 part. Unparsable → true.
 * (Not `request-filtering-agent`: it refuses every IPv6 range but `unicast`, so public IPv4 addresses
 * embedded in IPv6 — `::ffff:8.8.8.8`, `64:ff9b::808:808`, `2002:808:808::1` — too, has no host-name
 * exemption for `allowedHosts`, and reports a refusal as a plain Error known only by its message.)
 */
export function isForbiddenAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'unicast') return false;
  const parts = v6.parts;
  // ipaddr.js always gives the eight 16-bit parts.
  const [p0 = 0, p1 = 0, p2 = 0, , , , p6 = 0, p7 = 0] = parts;
  const embedded = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return embedded(p6, p7).range() !== 'unicast';
  if (range === 'rfc6052' && p0 === 0x64 && p1 === 0xff9b && parts.slice(2, 6).every((p) => p === 0)) {
    return embedded(p6, p7).range() !== 'unicast';
  }
  if (range === '6to4') return embedded(p1, p2).range() !== 'unicast';
  return true;
}

function normalizeHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

/** Checks a URL and resolves its host (OutboundRefusal when refused); the returned addresses are the only ones to dial. */
export async function resolveOutboundUrl(url: URL, policy: OutboundPolicy, signal?: AbortSignal): Promise<LookupAddress[]> {
  const host = normalizeHost(url.hostname);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusal('scheme', host);
  if (url.username || url.password) throw new OutboundRefusal('credentials', host);
  const family = net.isIP(host);
  let addresses: LookupAddress[];
  if (family) {
    addresses = [{ address: host, family }];
  } else {
    try {
      const lookup = dnsLookup(host, { all: true, verbatim: true });
      addresses = signal ? await abortable(lookup, signal) : await lookup;
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new OutboundRefusal('unresolved', host);
    }
    if (addresses.length === 0) throw new OutboundRefusal('unresolved', host);
  }
  const exempt = policy.allowPrivate || policy.allowedHosts.some((h) => normalizeHost(h) === host);
  if (!exempt && addresses.some((a) => isForbiddenAddress(a.address))) throw new OutboundRefusal('private', host);
  return addresses;
}

/** A `lookup` for http.request that only ever answers with the already checked addresses. */
export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname: string, lookupOptions: LookupOptions | number, callback) => {
    const o = typeof lookupOptions === 'number' ? { family: lookupOptions } : (lookupOptions ?? {});
    const family = o.family === 'IPv4' ? 4 : o.family === 'IPv6' ? 6 : (o.family ?? 0);
    const list = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
    const [first] = list;
    if (!first) {
      const err: NodeJS.ErrnoException = new Error(`no pinned IPv${family} address`);
      err.code = 'ENOTFOUND';
      callback(err, '', 0);
    } else if (o.all) {
      callback(null, list);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
