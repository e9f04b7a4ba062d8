#!/usr/bin/env bash
# ./trimus worker --tags gpu[,eu] [--port 8092] [--instance name]: one more adapter service in worker mode
# beside ./trimus up (same Kafka), foreground.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

# A remote worker on this host: the adapter service's own jar with TRIMUS_WORKER_TAGS set, on another HTTP port and with
# its own TRIMUS_DOCKER_INSTANCE (so its boot never reaps the main adapter's containers), on the Kafka of ./trimus up.
# On another host: the same jar with TRIMUS_WORKER_TAGS, TRIMUS_KAFKA_BOOTSTRAP and TRIMUS_ENCRYPTION_KEY (README).
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
  local key=${TRIMUS_ENCRYPTION_KEY:-}
  [ -z "$key" ] && [ -s .trimus/encryption.key ] && key=$(cat .trimus/encryption.key)
  [ -n "$key" ] || log "no TRIMUS_ENCRYPTION_KEY and no .trimus/encryption.key: runs that carry secrets will fail"
  local kafka=${TRIMUS_KAFKA_BOOTSTRAP:-127.0.0.1:${TRIMUS_KAFKA_PORT:-9092}}
  log "worker $instance: tags $tags, Kafka $kafka, http://127.0.0.1:$port (Ctrl-C stops it)"
  exec env TRIMUS_ENCRYPTION_KEY="$key" TRIMUS_WORKER_TAGS="$tags" TRIMUS_DOCKER_INSTANCE="$instance" \
      TRIMUS_WORKER_ID="${TRIMUS_WORKER_ID:-$(hostname)-$instance}" \
      java -Dkafka.bootstrap.servers="$kafka" -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" \
      -jar adapter-lambda-service/target/quarkus-app/quarkus-run.jar
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  worker "$@"
fi
