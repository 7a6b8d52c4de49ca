-- POST /api/visitor/track as a browser sends it (with its Origin header) for one returning session:
-- the request path alone, without the cost of storing a new visitor (compare with track.lua).
wrk.method = "POST"
wrk.headers["x-session-id"] = "bench-returning-visitor"
wrk.headers["Origin"] = os.getenv("BENCH_ORIGIN")
