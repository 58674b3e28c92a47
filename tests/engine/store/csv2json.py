#!/usr/bin/env python3
"""Reads a CSV file with Python's csv module (RFC 4180 quoting) and prints it
as JSON: {"header": [...], "rows": [{column: value, ...}, ...]}. Fails when a
row has a different number of fields than the header. Used by the CSV tests to
check wrkbench's CSV against a real parser."""

import csv
import json
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as f:
    reader = csv.reader(f, strict=True)
    header = next(reader)
    rows = []
    for number, row in enumerate(reader, start=2):
        if len(row) != len(header):
            sys.exit(f"record {number}: {len(row)} fields, header has {len(header)}")
        rows.append(dict(zip(header, row)))
json.dump({"header": header, "rows": rows}, sys.stdout)
