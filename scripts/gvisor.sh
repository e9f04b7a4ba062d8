#!/usr/bin/env bash
# gVisor for Trimus sandboxes: ensure_runsc installs Debian's runsc and registers it with the Docker engine as the
# runtime "runsc" (docs/deployment.md, "gVisor"). Sourced by scripts/test.sh (the tests run sandboxes under it) and
# scripts/up.sh (when TRIMUS_DOCKER_RUNTIMES lists runsc); run on its own it does just that.
#
# What it registers, in /etc/docker/daemon.json under "runtimes" (every other key of the file is kept):
#   "runsc": {"path": <runsc or Trimus's wrapper>, "runtimeArgs": ["--platform=<kvm|systrap|ptrace>",
#             "--network=sandbox", "--oci-seccomp"]}
# - platform: kvm where /dev/kvm is usable, else systrap where this runsc has it, else ptrace (Debian 12's build);
# - network=sandbox: gVisor's own TCP/IP stack (netstack), so a sandbox's socket calls never reach the host kernel;
# - --oci-seccomp: the container's seccomp profile applies inside the sandbox too (the adapter refuses a gVisor
#   runtime without it).
# Debian 12's runsc (2022) takes /proc/sys/net/core/rmem_default as the sign of the host's root network namespace and
# refuses netstack on kernels that show it in every namespace (6.x; gVisor issue 10704, fixed upstream in 2024): there
# the path is /usr/local/lib/trimus/runsc-netstack, which runs runsc in a mount namespace of its own where /proc/sys
# shows everything but net/. Nothing else on the host changes.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

RUNSC_DAEMON_JSON=${RUNSC_DAEMON_JSON:-/etc/docker/daemon.json}
RUNSC_WRAPPER=/usr/local/lib/trimus/runsc-netstack

# The platform gVisor intercepts system calls with on this machine.
runsc_platform() {
  if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then echo kvm
  elif runsc flags 2>&1 | grep -q systrap; then echo systrap
  else echo ptrace; fi
}

# Whether this runsc needs the wrapper for netstack: the kernel shows net.core sysctls in a new network namespace,
# and the runsc build predates gVisor's fix (2024-08).
runsc_needs_wrapper() {
  unshare -n test -e /proc/sys/net/core/rmem_default 2>/dev/null || return 1
  local built
  built=$(runsc --version 2>/dev/null | grep -o '20[0-9]\{6\}' | head -1)
  [ -z "$built" ] || [ "$built" -lt 20240801 ]
}

install_runsc_wrapper() {
  mkdir -p "$(dirname "$RUNSC_WRAPPER")"
  cat >"$RUNSC_WRAPPER.tmp" <<'EOF'
#!/bin/sh
# Installed by Trimus (scripts/gvisor.sh). Runs Debian's runsc with gVisor's own network stack on kernels that show
# net.core sysctls in every network namespace: that build takes /proc/sys/net/core/rmem_default as the sign of the
# root network namespace and refuses to start (gVisor issue 10704). In a mount namespace of its own, /proc/sys shows
# everything but net/, so the check sees what it expects; nothing outside runsc's own processes changes.
exec unshare --mount --propagation slave sh -ec '
  keep=/run/trimus-runsc-sys; mkdir -p "$keep"
  mount --bind /proc/sys "$keep"
  mount -t tmpfs -o size=64k,mode=555 trimus-runsc /proc/sys
  for d in "$keep"/*; do
    n=${d##*/}; [ "$n" = net ] && continue
    mkdir -p "/proc/sys/$n" 2>/dev/null || true
    mount --bind "$d" "/proc/sys/$n"
  done
  exec /usr/bin/runsc "$@"' runsc "$@"
EOF
  chmod 755 "$RUNSC_WRAPPER.tmp"
  mv "$RUNSC_WRAPPER.tmp" "$RUNSC_WRAPPER"
}

# Writes the runsc entry into daemon.json; prints what changed (nothing when it was already there).
register_runsc() { # path platform
  python3 - "$RUNSC_DAEMON_JSON" "$1" "$2" <<'EOF'
import json, os, shutil, sys
path, runsc, platform = sys.argv[1:4]
config = {}
if os.path.exists(path):
    with open(path) as f:
        text = f.read().strip()
    config = json.loads(text) if text else {}
wanted = {"path": runsc, "runtimeArgs": ["--platform=" + platform, "--network=sandbox", "--oci-seccomp"]}
runtimes = config.setdefault("runtimes", {})
before = runtimes.get("runsc")
if before == wanted:
    sys.exit(0)
runtimes["runsc"] = wanted
if os.path.exists(path) and not os.path.exists(path + ".before-trimus"):
    shutil.copyfile(path, path + ".before-trimus")
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path + ".tmp", "w") as f:
    json.dump(config, f, indent=2)
    f.write("\n")
os.replace(path + ".tmp", path)
print("%s: runtimes.runsc %s -> %s" % (path, json.dumps(before) if before else "(none)", json.dumps(wanted)))
EOF
}

ensure_runsc() {
  if ! is_debian_root; then
    if "$DOCKER" info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; then return 0; fi
    die "gVisor (runsc) is not registered with the Docker engine, and registering it needs root on Debian: see docs/deployment.md, gVisor"
  fi
  apt_install runsc python3
  local platform path=/usr/bin/runsc changed
  platform=$(runsc_platform)
  if runsc_needs_wrapper; then
    install_runsc_wrapper
    path=$RUNSC_WRAPPER
  fi
  changed=$(register_runsc "$path" "$platform")
  if [ -n "$changed" ]; then
    log "registered gVisor with the Docker engine: $changed (the previous file, if any: $RUNSC_DAEMON_JSON.before-trimus)"
    pkill -HUP -x dockerd || die "no dockerd to reload: start Docker, then run this again"
  fi
  for _ in $(seq 1 40); do
    "$DOCKER" info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"' && return 0
    sleep 0.25
  done
  die "the Docker engine did not take the runsc runtime from $RUNSC_DAEMON_JSON (see its log)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  ensure_docker
  ensure_runsc
fi
