vcl 4.1;

# cal-events behind Varnish 7.1 with the xkey vmod (Debian: varnish, varnish-modules).
#
# - Anonymous GET/HEAD reads are cached for as long as the application's `s-maxage` says
#   (CAL_HTTP_S_MAXAGE_S; 3600 by default when CAL_PURGE_URL is set). Only answers the
#   application marked shareable are kept: 200, `Cache-Control` with `s-maxage`, not private or
#   no-store, no Set-Cookie. Everything else (errors, signed-in answers, streams) is passed.
# - Requests with credentials (Authorization, sign-in cookies), `?password=` reads, event streams
#   and non-GET methods are passed to the application and never shared.
# - Every committed change makes the application send `PURGE` with `xkey: event-12 events-list …`
#   (CAL_PURGE_URL=http://this-varnish:6081/): each cached answer that named one of those keys in
#   its `xkey` header is dropped at once. Only addresses in the `purgers` ACL may purge.
# - `Vary: Accept-Encoding` is honoured through Varnish's own gzip handling: requests are
#   normalized to gzip or identity, the gzip answer is stored once and un-gzipped for clients that
#   do not take gzip.
#
# Adapt the backend address and the purgers ACL (your application hosts) to your deployment.

import std;
import xkey;

backend default {
    .host = "127.0.0.1";
    .port = "8080";
    .connect_timeout = 2s;
    .first_byte_timeout = 60s;
    .between_bytes_timeout = 60s;
}

# Who may purge: this host, plus the application servers' addresses (add them here).
acl purgers {
    "localhost";
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
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
    # Signed in (Basic / application passwords) or sign-in cookies: never shared.
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
