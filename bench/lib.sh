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
