vcl 4.1;

# cal-events behind Varnish 7.1 with the xkey vmod (Debian: varnish, varnish-modules).
#
# - The instances are listed in backends.vcl, beside this file: a round-robin director (`cal`) over
#   them, each probed on /readyz (below). An instance that is draining (SIGTERM with
#   CAL_DRAIN_DELAY_MS) or has lost its database answers 503 there and leaves the rotation until it
#   answers 200 again; a killed one fails its probes. When no instance is ready, cached answers are
#   still served and everything else gets a 503.
# - A read whose instance died under it (connection refused or reset, no answer) is sent again to
#   the next instance; a write is not (it may have been committed): its client sees the 503.
# - Anonymous GET/HEAD reads are cached for as long as the application's `s-maxage` says
#   (CAL_HTTP_S_MAXAGE_S; 3600 by default when CAL_PURGE_URL is set). Only answers the
#   application marked shareable are kept: 200, `Cache-Control` with `s-maxage`, not private or
#   no-store, no Set-Cookie. Everything else (errors, signed-in answers, streams) is passed.
# - Requests with credentials (Authorization, sign-in cookies), WordPress's post-password cookie
#   (pages it opens are that visitor's: private, `Vary: Cookie`), `?password=` reads, event streams
#   and non-GET methods are passed to the application and never shared.
# - Every committed change makes the instance that committed it send `PURGE` with
#   `xkey: event-12 events-list …` (CAL_PURGE_URL=http://this-varnish:6081/; several caches in front:
#   a comma-separated list): each cached answer that named one of those keys in its `xkey` header is
#   dropped at once, whichever instance computed it. Only addresses in the `purgers` ACL may purge:
#   list every application host there.
# - `Vary: Accept-Encoding` is honoured through Varnish's own gzip handling: requests are
#   normalized to gzip or identity, the gzip answer is stored once and un-gzipped for clients that
#   do not take gzip.
# - WebSocket upgrades (GraphQL over WebSocket) are piped to an instance.
#
# Adapt backends.vcl (your instances) and the purgers ACL (your application hosts) to your
# deployment; docs/topology.md describes the whole and how it behaves when a part fails.

import std;
import xkey;
import directors;

# Readiness, every second: 3 good answers out of the last 5 keep an instance in the rotation, so a
# killed or draining instance is out within ~3 s and one slow answer on a busy machine does not
# flap it. `.initial` = threshold: after a restart of Varnish the instances serve at once.
probe cal_ready {
    .url = "/readyz";
    .interval = 1s;
    .timeout = 2s;
    .window = 5;
    .threshold = 3;
    .initial = 3;
}

# The instances and the director `cal` over them.
include "./backends.vcl";

# Who may purge: this host, plus the application servers' addresses (add them here).
acl purgers {
    "localhost";
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    set req.backend_hint = cal.backend();
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey) {
            return (synth(400, "PURGE needs an xkey header"));
        }
        set req.http.X-Purged = xkey.purge(req.http.xkey);
        return (synth(200, "Purged " + req.http.X-Purged));
    }
    # GraphQL over WebSocket.
    if (req.http.Upgrade ~ "(?i)websocket") {
        return (pipe);
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # Signed in (Basic / application passwords), sign-in cookies or a post-password cookie: never shared.
    if (req.http.Authorization || req.http.Cookie ~ "(?i)(wordpress_logged_in|wordpress_sec|wp-postpass|session)") {
        return (pass);
    }
    # Password-protected reads and live streams (GraphQL over SSE).
    if (req.url ~ "[?&]password=" || req.http.Accept ~ "text/event-stream") {
        return (pass);
    }
    # Anonymous answers depend on no cookie: dropped, so that everyone shares them.
    unset req.http.Cookie;
    return (hash);
}

sub vcl_pipe {
    # Varnish closes piped connections after one request unless told otherwise: a WebSocket keeps
    # its upgrade.
    if (req.http.Upgrade) {
        set bereq.http.Upgrade = req.http.Upgrade;
        set bereq.http.Connection = req.http.Connection;
    }
}

sub vcl_backend_error {
    # No answer from the instance (killed, restarting, not yet out of the rotation): a read goes to
    # the next one. Writes are not retried: one that reached the instance may have been committed.
    if ((bereq.method == "GET" || bereq.method == "HEAD") && bereq.retries < 2) {
        return (retry);
    }
}

sub vcl_backend_response {
    if (bereq.uncacheable) {
        return (deliver);
    }
    # Kept only when the application marked the answer shareable (see above); otherwise a
    # hit-for-miss object lets the next requests go to the application without waiting.
    if (beresp.status != 200
        || beresp.http.Cache-Control !~ "s-maxage"
        || beresp.http.Cache-Control ~ "(?i)(private|no-store)"
        || beresp.http.Set-Cookie
        || beresp.http.Vary == "*") {
        set beresp.ttl = 120s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    # The TTL comes from s-maxage (Varnish prefers it to max-age). A short grace serves the old
    # copy while one request refreshes an answer whose time ran out; purged answers are gone at once.
    set beresp.grace = 10s;
    return (deliver);
}

sub vcl_deliver {
    # What the cache did, for operators and tests (X-Varnish and Age say it too).
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    # The keys are this cache's business.
    unset resp.http.xkey;
}
