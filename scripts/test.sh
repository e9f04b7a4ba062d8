#!/usr/bin/env bash
# ./trimus test: make sure the machine has what the tests need (Docker with gVisor registered, busybox-static, gcc,
# chromium), then ./mvnw verify (arguments are passed on to Maven).
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
. "$ROOT/scripts/gvisor.sh"

# What the tests need besides Docker: busybox-static for the test images, gcc to build the setuid probe,
# Debian's headless Chromium for the dashboard's browser tests (Playwright drives it; it never downloads a browser),
# and the real DNS tunnelling clients dns2tcp and iodine for the tunnelling tests' sandbox image.
ensure_test_tools() {
  if is_debian_root; then
    apt_install busybox-static gcc libc6-dev chromium chromium-driver dns2tcp iodine
  fi
  local missing=()
  [ -x /bin/busybox ] || missing+=("busybox-static (/bin/busybox)")
  [ -x /usr/lib/chromium/chromium ] || missing+=("chromium (/usr/lib/chromium/chromium)")
  command -v gcc >/dev/null 2>&1 || missing+=("gcc")
  [ -x /usr/bin/dns2tcpc ] && [ -x /usr/sbin/iodine ] || missing+=("dns2tcp and iodine (/usr/bin/dns2tcpc, /usr/sbin/iodine)")
  command -v java >/dev/null 2>&1 || missing+=("Java 17 (java)")
  [ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]}"
}

run_tests() {
  ensure_docker
  ensure_test_tools
  ensure_runsc   # sandboxes under gVisor too (GvisorSandboxTest, the egress end-to-end tests)
  ./mvnw -B verify "$@"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  run_tests "$@"
fi
