-- POST /api/visitor/track as a browser sends it (with its Origin header), with a new x-session-id on
-- every request (each one a new visitor), shaped as the web app builds it (src/web/lib/visitor.ts): the
-- time in milliseconds, a dash, a random number below 10^9. wrk's Lua has no clock finer than a
-- second, so the milliseconds are counted from the start, one per 64 requests (slower than real time
-- at the rates measured here, 0.4 to 0.9 of it). BENCH_ORIGIN is the site's origin (the bench's
-- PUBLIC_URL).
local threads = 0

-- Each wrk thread has a Lua state of its own: a number of its own seeds its random numbers apart.
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

local counter = 0
local start = os.time() * 1000
local origin = os.getenv("BENCH_ORIGIN")

function init()
  math.randomseed(os.time() * 1000 + (thread_number or 0))
end

request = function()
  counter = counter + 1
  local id = string.format("%d-%d", start + math.floor(counter / 64), math.random(0, 999999999))
  return wrk.format("POST", "/api/visitor/track", { ["x-session-id"] = id, ["Origin"] = origin })
end
