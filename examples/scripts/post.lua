-- A POST with a body and a header, set once: the request is built once, no Lua runs per request.
wrk.method = "POST"
wrk.body   = "foo=bar&baz=quux"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
