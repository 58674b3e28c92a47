-- Auth from a response header: the first response's "X-Token" header (or its ETag, or
-- Server when neither is there) becomes the Authorization of every later request.
token = nil

request = function()
   if token then
      return wrk.format("GET", wrk.path, { ["Authorization"] = "Bearer " .. token })
   end
   return wrk.format("GET", wrk.path)
end

response = function(status, headers, body)
   if not token then
      token = headers["X-Token"] or headers["ETag"] or headers["Server"]
   end
end
