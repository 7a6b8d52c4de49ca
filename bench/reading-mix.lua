-- GET one address after another, each chosen at random from BENCH_PATHS_FILE (one a line), as
-- visitors from many addresses would ask them: each request names a random client address in
-- X-Forwarded-For (the server trusts the loopback proxy), so that per-address limits apply as they
-- would to a crowd rather than to one greedy client. Asks for compression as a browser does.
-- BENCH_THINK_MS (optional): each connection waits a random 0 to 2x that many milliseconds between
-- answer and next request, as a reader does; without it connections ask back to back.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

local paths = {}

function init()
  math.randomseed(os.time() * 1000 + (thread_number or 0))
  for line in io.lines(os.getenv("BENCH_PATHS_FILE")) do
    if line ~= "" then paths[#paths + 1] = line end
  end
end

local think = tonumber(os.getenv("BENCH_THINK_MS") or "0")

if think > 0 then
  function delay()
    return math.random(0, 2 * think)
  end
end

request = function()
  local address = string.format("10.%d.%d.%d", math.random(0, 255), math.random(0, 255), math.random(1, 254))
  return wrk.format("GET", paths[math.random(1, #paths)], {
    ["X-Forwarded-For"] = address,
    ["Accept-Encoding"] = "gzip, deflate, br",
  })
end
