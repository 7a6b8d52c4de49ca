-- POST /api/visitor/track for one returning session: the request path alone, without the cost of
-- storing a new visitor (compare with track.lua, where every request is a new visitor).
wrk.method = "POST"
wrk.headers["x-session-id"] = "bench-returning-visitor"
