#!/usr/bin/env bash
# Writes the seeds of fuzz_sessionfile (tests/fuzz/corpus/sessionfile). Each seed is a list of
# patches to the valid session the fuzzer builds: a 3-byte offset (big-endian), a length byte,
# then that many bytes (fuzz_sessionfile.cpp). Offsets are those of SQLite's file format
# (https://www.sqlite.org/fileformat2.html) with 4096-byte pages.
#   tests/fuzz/sessionfile-seeds.sh
set -euo pipefail
out=$(dirname "$0")/corpus/sessionfile
mkdir -p "$out"
seed() { printf "$2" >"$out/$1"; }
seed unchanged ''                                              # the valid session, read whole
seed user-version-10 '\x00\x00\x3c\x04\x00\x00\x00\x0a'        # header: schema version 10 (its tables are 15's)
seed user-version-99 '\x00\x00\x3c\x04\x00\x00\x00\x63'        # header: a schema from the future
seed application-id '\x00\x00\x44\x04WRKX'                     # header: not wrkbench's file
seed page-count '\x00\x00\x1c\x04\x00\x00\xff\xff'             # header: more pages than the file has
seed schema-text '\x00\x0f\xa0\x08TRIGGER '                    # page 1 near its end: the schema's SQL text
seed second-page '\x00\x10\x00\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff' # page 2's header
seed data-page '\x00\xc0\x00\x20ABCDEFGHIJKLMNOPQRSTUVWXYZ012345'  # a page of rows
seed two-patches '\x00\x00\x3c\x04\x00\x00\x00\x0e\x00\x30\x10\x04\x00\x00\x00\x00'  # version 14, and a page
