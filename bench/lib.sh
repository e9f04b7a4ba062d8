# Shared by the benchmarks' run.sh scripts (sourced): the real Kafka and PostgreSQL of the test infrastructure,
# started as one child whose stdin the script holds (closing fd 3, or the script's exit, stops them).

# start_infra WORK KAFKA_PORT KAFKA_CONTROLLER_PORT POSTGRES_PORT: starts them under WORK and waits until both are
# ready (at most 120 s); sets infra_pid. Needs log and die.
start_infra() {
  local work=$1 kafka_port=$2 controller_port=$3 postgres_port=$4
  mkfifo "$work/infra.stdin"
  java -Xmx256m -cp "testing/target/classes:$(cat testing/target/classes/io/trimus/testing/infra.classpath)" \
      io.trimus.testing.DevInfraMain --data-dir "$work/infra-data" --kafka-port "$kafka_port" \
      --kafka-controller-port "$controller_port" --postgres-port "$postgres_port" \
      <"$work/infra.stdin" >"$work/infra.log" 2>&1 &
  infra_pid=$!
  exec 3>"$work/infra.stdin"
  for _ in $(seq 1 240); do
    grep -q '^READY' "$work/infra.log" && break
    kill -0 "$infra_pid" 2>/dev/null || { tail -30 "$work/infra.log"; die "Kafka/PostgreSQL did not start"; }
    sleep 0.5
  done
  grep -q '^READY' "$work/infra.log" || die "Kafka/PostgreSQL not ready after 120 s ($work/infra.log)"
  log "Kafka 127.0.0.1:$kafka_port, PostgreSQL 127.0.0.1:$postgres_port ready"
}

. "$(dirname "${BASH_SOURCE[0]}")/../scripts/keys.sh"

# start_identity WORK KAFKA_PORT POSTGRES_PORT HTTP_PORT: run-service on the infra, which egress-service asks who
# each API caller is. A fresh TRIMUS_ENCRYPTION_KEY (exported: the egress-services started afterwards share it) and
# operator token per run. Sets identity_pid, BENCH_OPERATOR (the header of the tenant APIs' calls: the bootstrap
# operator), BENCH_SERVICE (the service credential's header: /internal/* and /q/metrics) and RUN_SERVICE_URL.
start_identity() {
  local work=$1 kafka_port=$2 postgres_port=$3 http_port=$4 token
  [ -f run-service/target/quarkus-app/quarkus-run.jar ] \
    || die "run-service is not built: ./mvnw -B -DskipTests install (egress-service asks it who calls)"
  TRIMUS_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)
  export TRIMUS_ENCRYPTION_KEY
  token=$(head -c 36 /dev/urandom | base64 | tr '+/' '-_')
  TRIMUS_BOOTSTRAP_OPERATOR_TOKEN=$token java -Xmx256m -Dquarkus.http.port="$http_port" -Dquarkus.http.host=127.0.0.1 \
      -Dkafka.bootstrap.servers=127.0.0.1:$kafka_port \
      -Dquarkus.datasource.reactive.url=postgresql://127.0.0.1:$postgres_port/postgres \
      -Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:$postgres_port/postgres \
      -jar run-service/target/quarkus-app/quarkus-run.jar >"$work/run-service.log" 2>&1 &
  identity_pid=$!
  for _ in $(seq 1 240); do
    curl -fsS -o /dev/null "http://127.0.0.1:$http_port/q/health/ready" 2>/dev/null && break
    kill -0 "$identity_pid" 2>/dev/null || { tail -30 "$work/run-service.log"; die "run-service exited"; }
    sleep 0.5
  done
  curl -fsS -o /dev/null "http://127.0.0.1:$http_port/q/health/ready" || die "run-service not ready after 120 s"
  BENCH_OPERATOR="Authorization: Bearer $token"
  BENCH_SERVICE="Authorization: Bearer $(service_credential "$TRIMUS_ENCRYPTION_KEY")"
  RUN_SERVICE_URL=http://127.0.0.1:$http_port
  log "run-service 127.0.0.1:$http_port ready (the callers' directory)"
}
