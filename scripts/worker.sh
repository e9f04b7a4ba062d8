#!/usr/bin/env bash
# ./trimus worker --tags gpu[,eu] [--port 8092] [--instance name]: one more adapter service in worker mode
# beside ./trimus up (same Kafka), foreground.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

# A remote worker on this host: the adapter service's own jar with TRIMUS_WORKER_TAGS set, on another HTTP port and with
# its own TRIMUS_DOCKER_INSTANCE (so its boot never reaps the main adapter's containers), on the Kafka of ./trimus up.
# It gets the dispatch key only (TRIMUS_DISPATCH_KEY, derived from .trimus/encryption.key), never the master key.
# On another host: the same jar with TRIMUS_WORKER_TAGS, TRIMUS_KAFKA_BOOTSTRAP and TRIMUS_DISPATCH_KEY
# (./trimus dispatch-key prints it; docs/remote-workers.md).
worker() {
  local tags="" port=${TRIMUS_WORKER_PORT:-8092} instance=""
  local usage="usage: ./trimus worker --tags x[,y] [--port 8092] [--instance name]"
  while [ $# -gt 0 ]; do
    case "$1" in
      --tags) [ $# -ge 2 ] || die "$usage"; tags=$2; shift 2 ;;
      --port) [ $# -ge 2 ] || die "$usage"; port=$2; shift 2 ;;
      --instance) [ $# -ge 2 ] || die "$usage"; instance=$2; shift 2 ;;
      *) die "unknown option $1; $usage" ;;
    esac
  done
  [ -n "$tags" ] || die "$usage"
  instance=${instance:-worker-${tags//,/-}}
  mkdir -p .trimus/logs
  [ -f adapter-lambda-service/target/quarkus-app/quarkus-run.jar ] || build
  local key=${TRIMUS_DISPATCH_KEY:-}
  if [ -z "$key" ]; then
    local master
    master=$(master_key)
    [ -n "$master" ] || die "no TRIMUS_DISPATCH_KEY and no .trimus/encryption.key: a worker needs run-service's dispatch key (start ./trimus up once, or set TRIMUS_DISPATCH_KEY)"
    key=$(dispatch_key "$master")
  fi
  # its sandboxes on the egress network are registered with egress-service: it presents the service credential
  local credential=${TRIMUS_EGRESS_SERVICE_CREDENTIAL:-}
  if [ -z "$credential" ] && [ -n "$(master_key)" ]; then
    credential=$(service_credential "$(master_key)")
  fi
  local kafka=${TRIMUS_KAFKA_BOOTSTRAP:-127.0.0.1:${TRIMUS_KAFKA_PORT:-9092}}
  log "worker $instance: tags $tags, Kafka $kafka, http://127.0.0.1:$port (Ctrl-C stops it)"
  log "it runs only the remote agents of companies granted its tags; the operator grants one with"
  log "  curl -X PUT -H \"Authorization: Bearer \$OPERATOR_TOKEN\" localhost:8081/api/companies/<company_id>/worker-tags/${tags%%,*}"
  log "  (DELETE revokes, GET .../worker-tags lists)"
  exec env -u TRIMUS_ENCRYPTION_KEY TRIMUS_DISPATCH_KEY="$key" TRIMUS_WORKER_TAGS="$tags" \
      TRIMUS_EGRESS_SERVICE_CREDENTIAL="$credential" \
      TRIMUS_DOCKER_INSTANCE="$instance" TRIMUS_WORKER_ID="${TRIMUS_WORKER_ID:-$(hostname)-$instance}" \
      java -Dkafka.bootstrap.servers="$kafka" -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" \
      -jar adapter-lambda-service/target/quarkus-app/quarkus-run.jar
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  worker "$@"
fi
