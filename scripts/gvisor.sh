#!/usr/bin/env bash
# gVisor for Trimus sandboxes: ensure_runsc installs Debian's runsc and registers it with the Docker engine as the
# runtime "runsc" (docs/deployment.md, "gVisor"). Sourced by scripts/test.sh (the tests run sandboxes under it) and
# scripts/up.sh (when TRIMUS_DOCKER_RUNTIMES lists runsc); run on its own it does just that.
#
# What it registers, in /etc/docker/daemon.json under "runtimes" (every other key of the file is kept):
#   "runsc": {"path": <runsc>, "runtimeArgs": ["--platform=<kvm|systrap|ptrace>", <network>]}
# - platform: kvm where /dev/kvm is usable, else systrap where this runsc has it, else ptrace (Debian 12's build);
# - network: gVisor's own TCP/IP stack ("--network=sandbox --reproduce-nat") where this runsc can copy Docker's NAT
#   rule for its embedded DNS (127.0.0.11) into it, else the host's stack inside the container's namespace
#   ("--network=host"): on gVisor's own stack without that copy a sandbox on the egress network reaches no resolver
#   (Debian 12's 2022 build; docs/security-model.md, "gVisor and its network modes");
# - no --oci-seccomp: gVisor's kernel answers the sandbox's system calls in place of Docker's seccomp profile. With it,
#   Debian 12's runsc fails every new thread (Docker's profile answers clone3 ENOSYS, that build EPERM, and glibc
#   does not fall back): node (the CLIs) aborts at start, curl cannot resolve (measured).
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

RUNSC_DAEMON_JSON=${RUNSC_DAEMON_JSON:-/etc/docker/daemon.json}

# The platform gVisor intercepts system calls with on this machine.
runsc_platform() {
  if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then echo kvm
  elif runsc flags 2>&1 | grep -q systrap; then echo systrap
  else echo ptrace; fi
}

# The runtime arguments for gVisor's network: its own stack where it can reach Docker's embedded DNS, else the host's.
runsc_network_args() {
  if runsc flags 2>&1 | grep -q -- '-reproduce-nat'; then echo "--network=sandbox --reproduce-nat"
  else echo "--network=host"; fi
}

# Writes the runsc entry into daemon.json; prints what changed (nothing when it was already there).
register_runsc() { # path platform network-args
  python3 - "$RUNSC_DAEMON_JSON" "$1" "$2" "$3" <<'EOF'
import json, os, shutil, sys
path, runsc, platform, network = sys.argv[1:5]
config = {}
if os.path.exists(path):
    with open(path) as f:
        text = f.read().strip()
    config = json.loads(text) if text else {}
wanted = {"path": runsc, "runtimeArgs": ["--platform=" + platform] + network.split()}
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
  local platform network path=/usr/bin/runsc changed
  platform=$(runsc_platform)
  network=$(runsc_network_args)
  changed=$(register_runsc "$path" "$platform" "$network")
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
