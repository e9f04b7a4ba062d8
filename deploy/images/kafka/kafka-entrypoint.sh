#!/bin/sh
# Writes server.properties from the KAFKA_* environment (apache/kafka's rules), formats the log directory once with
# CLUSTER_ID, then runs the broker in the foreground.
set -eu
props=/opt/kafka/config/server.properties
: >"$props"
env | while IFS='=' read -r name value; do
  case "$name" in
    KAFKA_HEAP_OPTS|KAFKA_OPTS|KAFKA_JVM_OPTS) continue ;;
    KAFKA_*) ;;
    *) continue ;;
  esac
  key=$(printf '%s' "${name#KAFKA_}" | sed -e 's/___/-/g' -e 's/__/@/g' -e 's/_/./g' -e 's/@/_/g' | tr 'A-Z' 'a-z')
  printf '%s=%s\n' "$key" "$value" >>"$props"
done
grep -q '^process.roles=' "$props" || cat >>"$props" <<'DEFAULTS'
node.id=1
process.roles=broker,controller
listeners=PLAINTEXT://:9092,CONTROLLER://:9093
advertised.listeners=PLAINTEXT://localhost:9092
controller.listener.names=CONTROLLER
controller.quorum.voters=1@localhost:9093
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
DEFAULTS
grep -q '^log.dirs=' "$props" || echo 'log.dirs=/var/lib/kafka/data' >>"$props"
logdir=$(sed -n 's/^log\.dirs=//p' "$props" | cut -d, -f1)
cp="/opt/kafka/libs/*"
if [ ! -f "$logdir/meta.properties" ]; then
  java -cp "$cp" kafka.tools.StorageTool format --standalone -t "${CLUSTER_ID:-$(java -cp "$cp" kafka.tools.StorageTool random-uuid)}" -c "$props" 2>/dev/null \
    || java -cp "$cp" kafka.tools.StorageTool format -t "${CLUSTER_ID:-$(java -cp "$cp" kafka.tools.StorageTool random-uuid)}" -c "$props"
fi
# shellcheck disable=SC2086
exec java ${KAFKA_HEAP_OPTS:-} ${KAFKA_OPTS:-} -Dorg.slf4j.simpleLogger.defaultLogLevel=info \
    -Dorg.slf4j.simpleLogger.logFile=System.out -cp "$cp" kafka.Kafka "$props"
