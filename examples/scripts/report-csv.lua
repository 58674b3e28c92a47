-- done() writing a CSV of latency percentiles (µs) and the distinct latencies seen.
done = function(summary, latency, requests)
   io.write("percentile,latency_us\n")
   for _, p in ipairs({ 50, 75, 90, 99, 99.9 }) do
      io.write(string.format("%g,%d\n", p, latency:percentile(p)))
   end
   io.write(string.format("distinct,%d\n", #latency))
   local value, count = latency(1)
   io.write(string.format("lowest,%d,%d\n", value, count))
end
