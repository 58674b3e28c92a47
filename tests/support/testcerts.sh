#!/usr/bin/env bash
# A test PKI for the shell tests and benchmarks (the C++ tests have generateCertificates in
# testsupport): a CA, and a server certificate it signed for localhost and 127.0.0.1 (caddy
# answers HTTP/3 only with SNI, so clients name localhost). P-256 keys, valid two days.
#
#   tests/support/testcerts.sh DIR   ->  DIR/ca.pem, DIR/cert.pem, DIR/key.pem
set -euo pipefail
dir=${1:?usage: testcerts.sh DIR}
mkdir -p "$dir"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -keyout "$dir/ca.key" \
    -out "$dir/ca.pem" -subj "/CN=wrkbench test CA" >/dev/null 2>&1
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$dir/key.pem" -out "$dir/csr.pem" \
    -subj /CN=localhost >/dev/null 2>&1
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' >"$dir/san.ext"
openssl x509 -req -in "$dir/csr.pem" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -out "$dir/cert.pem" -extfile "$dir/san.ext" >/dev/null 2>&1
