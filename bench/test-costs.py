#!/usr/bin/env python3
"""Each test's wall time and CPU (user, sys) in a built tree: where a suite's time goes.

ctest says how long a test took, not what it cost the machine; a test that waits and one that keeps
both cores busy look alike. This runs the tests ctest lists (the same commands, working directories
and environment), JOBS at a time, and reads each one's CPU from wait4(): the test process and every
child it waited for (wrkbench-cli runs, servers it started and stopped; not daemons that detach, as
nginx does). Tests whose labels match EXCLUDE are left out (by default the quiet tier).

    bench/test-costs.py [--build build] [--jobs 2] [--exclude quiet] [--regex REGEX] [--out FILE]

Prints one line per test, costliest CPU first, then the sums; --out also keeps the lines as they end.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--exclude", default="quiet", help="label regex to leave out ('' for none)")
    ap.add_argument("--regex", default="", help="only tests whose name matches")
    ap.add_argument("--out")
    args = ap.parse_args()

    listed = subprocess.run(["ctest", "--test-dir", args.build, "--show-only=json-v1"], check=True,
                            capture_output=True, text=True).stdout
    tests = []
    for t in json.loads(listed)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        if props.get("DISABLED") or "command" not in t:
            continue
        if args.exclude and any(re.search(args.exclude, label) for label in props.get("LABELS", [])):
            continue
        if args.regex and not re.search(args.regex, t["name"]):
            continue
        tests.append((t["name"], t["command"], props))

    out = open(args.out, "w") if args.out else None
    rows, running, started, failed = [], {}, time.monotonic(), 0
    queue = list(tests)
    while queue or running:
        while queue and len(running) < args.jobs:
            name, command, props = queue.pop(0)
            env = dict(os.environ)
            env.update(kv.split("=", 1) for kv in props.get("ENVIRONMENT", []))
            # Kept referenced: a dropped Popen is reaped by the next one, and wait4 would miss it.
            p = subprocess.Popen(command, cwd=props.get("WORKING_DIRECTORY"), env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            running[p.pid] = (name, time.monotonic(), p)
        pid, status, usage = os.wait4(-1, 0)
        if pid not in running:
            continue
        name, begun, p = running.pop(pid)
        p.returncode = os.waitstatus_to_exitcode(status)
        failed += p.returncode != 0
        row = (time.monotonic() - begun, usage.ru_utime, usage.ru_stime, p.returncode, name)
        rows.append(row)
        if out:
            out.write("%.1f %.1f %.1f %d %s\n" % row)
            out.flush()
    wall = time.monotonic() - started

    print("%8s %8s %8s %5s  %s" % ("wall_s", "user_s", "sys_s", "exit", "test"))
    for row in sorted(rows, key=lambda r: r[1] + r[2], reverse=True):
        print("%8.1f %8.1f %8.1f %5d  %s" % row)
    print("%d tests, %d failed, %d at a time: %.1f s of wall time; summed over the tests %.1f s of wall "
          "time, %.1f s user, %.1f s sys" % (len(rows), failed, args.jobs, wall, sum(r[0] for r in rows),
                                              sum(r[1] for r in rows), sum(r[2] for r in rows)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
