#!/usr/bin/env bash
# bench/dispatch: Trimus docker-adapter runs vs raw `docker run`, one invocation. Starts ./trimus up if needed.
# --runtimes: runsc (gVisor) against runc instead, start, run-to-exit and the proxy path (runtimes.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
started=""
# --runtimes: gVisor against runc (bench/dispatch/runtimes.py); the stack must offer both runtimes
if [ "${1:-}" = --runtimes ]; then
  shift
  export TRIMUS_DOCKER_RUNTIMES=${TRIMUS_DOCKER_RUNTIMES:-runc,runsc}
  mode=runtimes
fi
# run-service's API needs a caller: the bootstrap operator's token, made up here when ./trimus up is started below
# (an already running stack needs TRIMUS_BOOTSTRAP_OPERATOR_TOKEN set to its own)
if [ -z "${TRIMUS_BOOTSTRAP_OPERATOR_TOKEN:-}" ]; then
  curl -fsS -o /dev/null http://127.0.0.1:8081/q/health/ready 2>/dev/null \
    && { echo "bench/dispatch: set TRIMUS_BOOTSTRAP_OPERATOR_TOKEN to the running stack's operator token" >&2; exit 1; }
  TRIMUS_BOOTSTRAP_OPERATOR_TOKEN=$(head -c 36 /dev/urandom | base64 | tr '+/' '-_')
fi
export TRIMUS_BOOTSTRAP_OPERATOR_TOKEN
if ! curl -fsS -o /dev/null http://127.0.0.1:8081/q/health/ready 2>/dev/null; then
  ./trimus up > .trimus/bench-up.log 2>&1 &
  started=$!
  trap 'kill -TERM $started 2>/dev/null; wait $started 2>/dev/null || true' EXIT
  # every service the runs go through must be ready, not the adapter alone: run-service (8081) takes the POSTs,
  # egress-service (8083) registers the sandboxes; admin-ui (8080) is waited for too, as ./trimus up starts it
  pending="8081 8082 8083 8080"
  for _ in $(seq 1 600); do
    still=""
    for port in $pending; do
      curl -fsS -o /dev/null "http://127.0.0.1:$port/q/health/ready" 2>/dev/null || still="$still $port"
    done
    pending=$still
    [ -z "$pending" ] && break
    kill -0 $started 2>/dev/null || { tail -30 .trimus/bench-up.log; exit 1; }
    sleep 1
  done
  [ -z "$pending" ] || { echo "bench/dispatch: not ready after 600 s on port(s)$pending" >&2; tail -30 .trimus/bench-up.log; exit 1; }
fi
if [ "${mode:-}" = runtimes ]; then
  python3 bench/dispatch/runtimes.py "$@"
  exit 0
fi
if [ "${ADAPTERS:-1}" = 1 ]; then
  python3 bench/dispatch/dispatch.py "$@"
  exit 0
fi
# ADAPTERS=2: the same measurement with the one adapter of ./trimus up, then again with a second adapter instance on
# the same engine and broker (its own TRIMUS_DOCKER_INSTANCE and port), in this one invocation
python3 bench/dispatch/dispatch.py --label "1 adapter" "$@"
. scripts/lib.sh
TRIMUS_ENCRYPTION_KEY=$(master_key) TRIMUS_DOCKER_INSTANCE=bench-adapter-2   java -Dkafka.bootstrap.servers=127.0.0.1:${TRIMUS_KAFKA_PORT:-9092} -Dquarkus.http.host=127.0.0.1   -Dquarkus.http.port=8093 -jar adapter-lambda-service/target/quarkus-app/quarkus-run.jar   > .trimus/logs/bench-adapter-2.log 2>&1 &
second=$!
trap 'kill -TERM $second 2>/dev/null; wait $second 2>/dev/null || true; [ -z "$started" ] || { kill -TERM $started 2>/dev/null; wait $started 2>/dev/null || true; }' EXIT
for _ in $(seq 1 120); do
  curl -fsS -o /dev/null http://127.0.0.1:8093/q/health/ready 2>/dev/null && break
  sleep 1
done
python3 bench/dispatch/dispatch.py --label "2 adapters" "$@"
