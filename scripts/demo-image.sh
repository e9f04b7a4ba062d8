#!/usr/bin/env bash
# ./trimus demo-image: build the local demo image trimus/busybox:local used by the README walk-through.
# Sourced by up.sh and .ci/compose-smoke.sh for demo_image; run on its own it builds the image.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

demo_image() {
  ensure_docker
  if "$DOCKER" image inspect trimus/busybox:local >/dev/null 2>&1; then return 0; fi
  [ -x /bin/busybox ] || { is_debian_root && apt_install busybox-static; }
  [ -x /bin/busybox ] || die "busybox-static is needed for the demo image (apt-get install busybox-static)"
  local ctx; ctx=$(mktemp -d)
  cp /bin/busybox "$ctx/busybox"
  cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
USER 1000:1000
CMD ["/bin/sh", "-c", "echo hello from a Trimus sandbox; id"]
DOCKERFILE
  log "building demo image trimus/busybox:local"
  "$DOCKER" build -q -t trimus/busybox:local "$ctx" >/dev/null
  rm -rf "$ctx"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  demo_image
fi
