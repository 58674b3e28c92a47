-- done() writing the run's figures as one JSON object (CI reads it).
done = function(summary, latency, requests)
   io.write(string.format(
      '{"duration_us":%d,"requests":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},',
      summary.duration, summary.requests, summary.bytes, summary.errors.connect, summary.errors.read,
      summary.errors.write, summary.errors.status, summary.errors.timeout))
   io.write(string.format('"latency_us":{"min":%d,"max":%d,"mean":%.2f,"stdev":%.2f,"p50":%d,"p99":%d},',
      latency.min, latency.max, latency.mean, latency.stdev, latency:percentile(50), latency:percentile(99)))
   io.write(string.format('"requests_per_s":{"mean":%.2f,"stdev":%.2f,"max":%d}}\n',
      requests.mean, requests.stdev, requests.max))
end
