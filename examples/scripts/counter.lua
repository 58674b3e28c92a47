-- A counter in the path (wrk's scripts/counter.lua idea): request() runs for every request.
counter = 0

request = function()
   local path = "/mix/" .. counter
   counter = counter + 1
   return wrk.format(nil, path)
end
