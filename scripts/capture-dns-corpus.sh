#!/usr/bin/env bash
# Captures the corpus of real DNS queries in egress-service/src/test/resources/dns-corpus/ (issue 17): the
# packets that dig, glibc, musl, Node (c-ares), Go's resolver and BusyBox's nslookup really send, for the
# differential test that feeds them to the resolver's hot path and to dnsjava. Usage (Debian, as root or any user allowed to create
# user namespaces):
#
#   scripts/capture-dns-corpus.sh [OUT_DIR]      # default egress-service/src/test/resources/dns-corpus
#
# How: everything runs in a fresh user+mount+network namespace (unshare -rmn) whose only interface is
# loopback, so no packet leaves the machine and the host's resolver is never touched. Inside it,
# /etc/resolv.conf, /etc/nsswitch.conf and /etc/hosts are bind-mounted from temporary files (nameserver
# 127.0.0.1, hosts: files dns) and scripts/dns-corpus/server.py listens on 127.0.0.1:53 (UDP and TCP). It
# writes each datagram (TCP: each message without its 2-byte length) to a file named after the current step
# and answers it (A 127.0.0.1, AAAA ::1, "nx*" names NXDOMAIN, "tcp*" names truncated over UDP so the client
# retries over TCP, otherwise no data). Each step rewrites resolv.conf when it needs other options, so glibc,
# musl and Go, which read it themselves, see them. Finally the packets are de-duplicated by content with the
# 2-byte id zeroed (first capture kept) and written as OUT_DIR/<client>-<what>-<n>.bin, with OUT_DIR/index.txt
# saying what each packet is and which steps sent it (scripts/dns-corpus/finalize.py); the old *.bin files and
# index.txt there are replaced, README.md is left alone. The versions of the clients are printed at the end.
#
# Needs: bind9-dnsutils (dig, host, nslookup), python3, gcc, musl-tools, golang-go, nodejs, iproute2, util-linux,
# and busybox if present (its nslookup); as root on Debian the missing packages are installed with apt-get, and a
# client that is still missing is skipped with a warning. GOPATH and GOCACHE stay under the temporary directory.
# DNS_CORPUS_KEEP=1 keeps the temporary directory (clients.log: what every client printed; raw/: every packet).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")

if [ "${1:-}" = --inside ]; then
  WORK=$2
  # shellcheck source=/dev/null
  source "$HERE/dns-corpus/steps.sh"
  exit 0
fi

OUT=${1:-$ROOT/egress-service/src/test/resources/dns-corpus}

need=()
command -v python3 >/dev/null || need+=(python3)
command -v dig >/dev/null || need+=(bind9-dnsutils)
command -v musl-gcc >/dev/null || need+=(musl-tools)
command -v go >/dev/null || need+=(golang-go)
command -v node >/dev/null || need+=(nodejs)
command -v gcc >/dev/null || need+=(gcc libc6-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null || {
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; } ||
      echo "warning: could not install ${need[*]}; their clients are skipped" >&2
  else
    echo "warning: missing ${need[*]}; their clients are skipped" >&2
  fi
fi

PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || { echo "python3 is missing" >&2; exit 1; }
WORK=$(mktemp -d /tmp/dns-corpus.XXXXXX)
if [ -n "${DNS_CORPUS_KEEP:-}" ]; then echo "keeping $WORK" >&2; else trap 'rm -rf "$WORK"' EXIT; fi
mkdir -p "$WORK/raw" "$WORK/bin"
cp "$HERE/dns-corpus/server.py" "$WORK/bin/server.py"
cp "$HERE/dns-corpus/node-resolve.js" "$WORK/bin/node-resolve.js"
command -v gcc >/dev/null && gcc -O2 -o "$WORK/bin/resolve-glibc" "$HERE/dns-corpus/resolve.c" -lresolv
command -v musl-gcc >/dev/null && musl-gcc -O2 -static -o "$WORK/bin/resolve-musl" "$HERE/dns-corpus/resolve.c"
if command -v go >/dev/null; then
  mkdir -p "$WORK/go" && cp "$HERE/dns-corpus/go-resolve.go" "$WORK/go/"
  (cd "$WORK/go" && GOPATH=$WORK/gopath GOCACHE=$WORK/gocache GO111MODULE=off GOFLAGS= \
    go build -o "$WORK/bin/go-resolve" go-resolve.go)
fi

{
  echo "dig: $(dig -v 2>&1)"
  echo "glibc: $(ldd --version | head -1)"
  echo "musl: $(dpkg-query -W -f '${Version}' musl 2>/dev/null || echo missing)"
  echo "node: $(node -v 2>/dev/null || echo missing) (c-ares $(node -p process.versions.ares 2>/dev/null))"
  echo "go: $(go version 2>/dev/null || echo missing)"
  echo "busybox: $(busybox 2>/dev/null | head -1 || echo missing)"
  echo "python3: $($PY -V 2>&1)"
} >"$WORK/versions.txt"

PY=$PY unshare -rmn -- bash "$0" --inside "$WORK"

rm -f "$OUT"/*.bin "$OUT"/index.txt
mkdir -p "$OUT"
"$PY" "$HERE/dns-corpus/finalize.py" "$WORK/raw" "$OUT" "$WORK/versions.txt"
cat "$WORK/versions.txt"
