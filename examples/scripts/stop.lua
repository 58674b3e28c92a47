-- Stop after a number of responses per thread (args after --, default 100).
function init(args)
   limit = tonumber(args[1]) or 100
   responses = 0
end

function response(status, headers, body)
   responses = responses + 1
   if responses >= limit then
      wrk.thread:stop()
   end
end
