-- POST /api/visitor/track as a browser sends it (with its Origin header), with a new x-session-id on
-- every request (each one a new visitor). BENCH_ORIGIN is the site's origin (the bench's PUBLIC_URL).
local counter = 0
local prefix = tostring(os.time()) .. "-" .. tostring(math.random(1000000))
local origin = os.getenv("BENCH_ORIGIN")

request = function()
  counter = counter + 1
  return wrk.format("POST", "/api/visitor/track", { ["x-session-id"] = prefix .. "-" .. counter, ["Origin"] = origin })
end
