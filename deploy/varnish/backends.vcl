# The cal-events instances behind Varnish (included by cal-events.vcl): one `backend` per instance,
# each probed on /readyz by `cal_ready`, and the round-robin director `cal` over all of them.
# Three instances on this host here (deploy/systemd/cal-events@.service, ports 8081-8083); list
# yours, and add their addresses to the `purgers` ACL in cal-events.vcl.

backend app1 {
    .host = "127.0.0.1";
    .port = "8081";
    .probe = cal_ready;
    .connect_timeout = 2s;
    .first_byte_timeout = 60s;
    .between_bytes_timeout = 60s;
}

backend app2 {
    .host = "127.0.0.1";
    .port = "8082";
    .probe = cal_ready;
    .connect_timeout = 2s;
    .first_byte_timeout = 60s;
    .between_bytes_timeout = 60s;
}

backend app3 {
    .host = "127.0.0.1";
    .port = "8083";
    .probe = cal_ready;
    .connect_timeout = 2s;
    .first_byte_timeout = 60s;
    .between_bytes_timeout = 60s;
}

sub vcl_init {
    new cal = directors.round_robin();
    cal.add_backend(app1);
    cal.add_backend(app2);
    cal.add_backend(app3);
}
