-- A random delay before each request, in milliseconds (wrk's scripts/delay.lua).
function delay()
   return math.random(10, 50)
end
