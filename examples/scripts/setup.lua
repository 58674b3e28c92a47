-- setup(thread) with thread:set, and thread:get in done(): each thread counts its responses.
local threads = {}

function setup(thread)
   thread:set("id", #threads + 1)
   thread:set("tags", { "a", "b", n = 2 })
   table.insert(threads, thread)
end

function init(args)
   responses = 0
end

function response(status, headers, body)
   responses = responses + 1
end

function done(summary, latency, requests)
   for _, thread in ipairs(threads) do
      print(string.format("thread %d: %d responses (%s)", thread:get("id"), thread:get("responses"),
                          thread.addr))
   end
end
