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

# master_hex, dispatch_key, service_credential
. "$ROOT/scripts/keys.sh"

# The master key of ./trimus up: TRIMUS_ENCRYPTION_KEY, else .trimus/encryption.key; empty when there is none.
master_key() {
  local key=${TRIMUS_ENCRYPTION_KEY:-}
  [ -z "$key" ] && [ -s .trimus/encryption.key ] && key=$(cat .trimus/encryption.key)
  printf '%s' "$key"
}
