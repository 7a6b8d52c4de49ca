-- POST /api/visitor/track with a new x-session-id on every request (each one a new visitor).
local counter = 0
local prefix = tostring(os.time()) .. "-" .. tostring(math.random(1000000))

request = function()
  counter = counter + 1
  return wrk.format("POST", "/api/visitor/track", { ["x-session-id"] = prefix .. "-" .. counter })
end
