#!/usr/bin/env bash
# ./trimus cli-e2e: the real Claude Code and Codex CLIs end to end. Builds the CLI sandbox images (the pinned CLIs from
# the npm registry: ./trimus images --sandbox-only), then runs RealCliEndToEndTest (egress-service): run-service's API,
# a company with masked provider keys, one claude_sandbox and one codex_sandbox agent with an empty adapter_config, each
# run through the egress proxy to provider stand-ins at the providers' own names. TRIMUS_SKIP_BUILD=1 reuses the jars
# of the last build (CI: right after ./trimus test). Extra arguments go to Maven.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

cli_e2e() {
  ensure_docker
  local started=$SECONDS
  scripts/images.sh --sandbox-only
  if [ "${TRIMUS_SKIP_BUILD:-0}" != 1 ]; then
    log "building the services (./mvnw -DskipTests package)"
    ./mvnw -B -q -DskipTests package
  fi
  log "running RealCliEndToEndTest (the real CLIs through run-service, the adapter and the masking proxy)"
  ./mvnw -B -pl egress-service -am test -Dtest=RealCliEndToEndTest -Dsurefire.failIfNoSpecifiedTests=false "$@"
  log "cli-e2e passed in $((SECONDS - started)) s"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  cli_e2e "$@"
fi
