#!/bin/bash
# steal.sh SHARE_PCT PERIOD_MS -- CMD...: runs cmd in its own process group and stops the group
# for SHARE% of every PERIOD ms (a hypervisor's steal, as the guest's processes see it).
share=$1; period=$2; shift 3
setsid "$@" &
pid=$!
stop_s=$(echo "scale=4; $period*$share/100/1000" | bc)
run_s=$(echo "scale=4; $period*(100-$share)/100/1000" | bc)
while kill -0 $pid 2>/dev/null; do
  kill -STOP -$pid 2>/dev/null; sleep $stop_s; kill -CONT -$pid 2>/dev/null; sleep $run_s
done
wait $pid
