-- Several requests returned at once are pipelined, as wrk's scripts/pipeline.lua.
init = function(args)
   local r = {}
   r[1] = wrk.format(nil, "/mix/1")
   r[2] = wrk.format(nil, "/mix/2")
   r[3] = wrk.format(nil, "/mix/3")
   req = table.concat(r)
end

request = function()
   return req
end
