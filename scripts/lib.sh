#!/usr/bin/env bash
# Shared helpers of ./trimus and its commands: sourced, never run. Puts the shell in the repository root (whatever
# the caller's cwd) and defines log, die, is_debian_root, apt_install, ensure_docker, build and dispatch_key.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
DOCKER=/usr/bin/docker
[ -x "$DOCKER" ] || DOCKER=$(command -v docker || echo docker)
mkdir -p .trimus

log() { printf '[trimus] %s\n' "$*" >&2; }
die() { printf '[trimus] error: %s\n' "$*" >&2; exit 1; }

is_debian_root() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]} with apt"
  apt-get update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}" >/dev/null
}

# The Docker engine: installed and started on Debian as root, otherwise a clear message of what is missing.
ensure_docker() {
  if is_debian_root; then
    apt_install docker.io
    if ! "$DOCKER" version >/dev/null 2>&1; then
      log "starting dockerd"
      pidof dockerd >/dev/null || rm -f /var/run/docker.pid
      setsid nohup /usr/sbin/dockerd --host=unix:///var/run/docker.sock >>/var/log/dockerd.log 2>&1 </dev/null &
    fi
  fi
  for _ in $(seq 1 120); do "$DOCKER" version >/dev/null 2>&1 && return 0; sleep 0.5; done
  die "no Docker engine answers at /var/run/docker.sock: install and start Docker (Debian: apt-get install docker.io; dockerd)"
}

build() {
  if [ "${TRIMUS_SKIP_BUILD:-}" = 1 ] && [ -f run-service/target/quarkus-app/quarkus-run.jar ]; then return 0; fi
  log "building (./mvnw install -DskipTests)"
  ./mvnw -B -DskipTests install >.trimus/build.log 2>&1 || { tail -40 .trimus/build.log; die "build failed (log: .trimus/build.log)"; }
}

# TRIMUS_ENCRYPTION_KEY (base64 or 64 hex digits) as 64 hex digits, or death with a sentence.
master_hex() {
  local master=$1 hex
  if [[ $master =~ ^[0-9a-fA-F]{64}$ ]]; then
    hex=$master
  else
    hex=$(printf '%s' "$master" | tr -d ' \n' | tr -- '-_' '+/' | base64 -d 2>/dev/null | od -An -v -tx1 | tr -d ' \n')
  fi
  [ ${#hex} -eq 64 ] || die "TRIMUS_ENCRYPTION_KEY is not 32 bytes written as base64 or 64 hex digits"
  printf '%s' "$hex"
}

# The dispatch key workers get, from TRIMUS_ENCRYPTION_KEY: HMAC-SHA256 of the key over "trimus/dispatch/v1", as 64
# hex digits, exactly what run-service derives (events' DispatchKey). One-way: the master key, and with it the key of
# the secrets stored at rest, cannot be computed back from it.
dispatch_key() {
  local hex; hex=$(master_hex "$1") || exit 1
  printf 'trimus/dispatch/v1' | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$hex" | sed 's/^.*= //'
}

# The service credential of a master key: what the adapter's sandbox registrations present to egress-service
# (events' ServiceCredential: "svc_" + base64url of HMAC-SHA256(master, "trimus/service-credential/v1")).
service_credential() {
  local hex; hex=$(master_hex "$1") || exit 1
  printf 'svc_%s\n' "$(printf 'trimus/service-credential/v1' | openssl dgst -sha256 -binary -mac HMAC -macopt "hexkey:$hex" \
    | base64 | tr '+/' '-_' | tr -d '=\n')"
}

# The master key of ./trimus up: TRIMUS_ENCRYPTION_KEY, else .trimus/encryption.key; empty when there is none.
master_key() {
  local key=${TRIMUS_ENCRYPTION_KEY:-}
  [ -z "$key" ] && [ -s .trimus/encryption.key ] && key=$(cat .trimus/encryption.key)
  printf '%s' "$key"
}
