#!/bin/sh
# Creates the topics (a client may not create one: no user holds Create) and the SCRAM-SHA-512 users of the services and their ACLs on the compose Kafka (docker-compose.sasl.yml), the
# same users and ACLs as k8s/base/kafka-users.yaml (KafkaAclsTest compares the two). Runs in Kafka's network namespace
# and talks to the loopback-only listener, whose anonymous client is the super user. Idempotent: run it again after
# changing a password in .env.
set -eu
bootstrap=localhost:19092
cp="/opt/kafka/libs/*"

# user                    type   name                         pattern   operations
ACLS='
run-service               topic  trimus.run.requested         literal   Write,Describe
run-service               topic  trimus.run.cancel            literal   Write,Describe
run-service               topic  trimus.audit                 literal   Write,Read,Describe
run-service               topic  trimus.run.status            literal   Read,Describe
run-service               topic  trimus.worker.heartbeats     literal   Read,Describe
run-service               group  trimus-run-service           literal   Read
run-service               group  trimus-run-service-audit     literal   Read
run-service               group  trimus-run-service-workers-  prefixed  Read
run-service               group  trimus-run-service-watch-    prefixed  Read
run-service               topic  trimus.adapter.leases        literal   Write,Read,Describe
run-service               group  trimus-run-service-leases-   prefixed  Read
adapter-lambda-service    topic  trimus.run.status            literal   Write,Describe
adapter-lambda-service    topic  trimus.remote.tasks          literal   Write,Describe
adapter-lambda-service    topic  trimus.adapter.leases        literal   Write,Read,Describe
adapter-lambda-service    topic  trimus.run.requested         literal   Read,Describe
adapter-lambda-service    topic  trimus.run.cancel            literal   Read,Describe
adapter-lambda-service    topic  trimus.worker.heartbeats     literal   Read,Describe
adapter-lambda-service    group  trimus-adapter               literal   Read
adapter-lambda-service    group  trimus-adapter-cancel-       prefixed  Read
adapter-lambda-service    group  trimus-adapter-heartbeats-   prefixed  Read
adapter-lambda-service    topic  trimus.egress.canary.requests literal  Read,Describe
adapter-lambda-service    topic  trimus.egress.canary.results literal   Write,Describe
adapter-lambda-service    group  trimus-adapter-canary        literal   Read
egress-service            topic  trimus.egress.anomalies      literal   Write,Read,Describe
egress-service            topic  trimus.audit                 literal   Write,Describe
egress-service            topic  trimus.egress.canary.requests literal  Write,Describe
egress-service            topic  trimus.egress.canary.results literal   Read,Describe
egress-service            group  trimus-egress-service        literal   Read
admin-ui                  topic  trimus.run.status            literal   Read,Describe
admin-ui                  topic  trimus.egress.anomalies      literal   Read,Describe
admin-ui                  group  trimus-admin-ui-run-status-  prefixed  Read
admin-ui                  group  trimus-admin-ui-anomalies-   prefixed  Read
trimus-worker             topic  trimus.run.status            literal   Write,Describe
trimus-worker             topic  trimus.worker.heartbeats     literal   Write,Read,Describe
trimus-worker             topic  trimus.adapter.leases        literal   Write,Read,Describe
trimus-worker             topic  trimus.remote.tasks          literal   Read,Describe
trimus-worker             topic  trimus.run.cancel            literal   Read,Describe
trimus-worker             group  trimus-worker-               prefixed  Read
trimus-worker             group  trimus-adapter-cancel-       prefixed  Read
trimus-worker             group  trimus-adapter-heartbeats-   prefixed  Read
'

# kafka-configs.sh / kafka-acls.sh where the image has them (apache/kafka), their classes otherwise (trimus-base/kafka)
configs() {
  if [ -x /opt/kafka/bin/kafka-configs.sh ]; then /opt/kafka/bin/kafka-configs.sh "$@"; else java -cp "$cp" kafka.admin.ConfigCommand "$@"; fi
}
topics() {
  if [ -x /opt/kafka/bin/kafka-topics.sh ]; then /opt/kafka/bin/kafka-topics.sh "$@"; else java -cp "$cp" org.apache.kafka.tools.TopicCommand "$@"; fi
}
acls() {
  if [ -x /opt/kafka/bin/kafka-acls.sh ]; then /opt/kafka/bin/kafka-acls.sh "$@"; else java -cp "$cp" org.apache.kafka.tools.AclCommand "$@"; fi
}

until configs --bootstrap-server "$bootstrap" --describe --entity-type brokers --entity-default >/dev/null 2>&1; do
  echo "waiting for Kafka on $bootstrap"; sleep 2
done

# the topics of k8s/base/kafka-topics.yaml, three partitions each as the compose broker's default gives them without
# SASL (replicas share them), but trimus.remote.tasks: a tag's workers share its tasks by sharing its partitions
# (TRIMUS_REMOTE_TASK_PARTITIONS), and trimus.adapter.leases: one, its readers rely on one order
for topic in trimus.run.requested trimus.run.status trimus.run.cancel trimus.remote.tasks trimus.worker.heartbeats \
    trimus.adapter.leases trimus.egress.anomalies trimus.egress.canary.requests trimus.egress.canary.results \
    trimus.audit; do
  partitions=3
  if [ "$topic" = trimus.remote.tasks ]; then partitions=12; fi
  if [ "$topic" = trimus.adapter.leases ]; then partitions=1; fi
  topics --bootstrap-server "$bootstrap" --create --if-not-exists --topic "$topic" --partitions "$partitions" \
    --replication-factor 1
done

# ACLs first, users last (admin-ui's, which Kafka's health check logs in with): healthy means ready.
echo "$ACLS" | while read -r user type name pattern operations; do
  [ -n "$user" ] || continue
  ops=$(echo "$operations" | tr ',' '\n' | sed 's/^/--operation /' | tr '\n' ' ')
  # shellcheck disable=SC2086
  acls --bootstrap-server "$bootstrap" --add --allow-principal "User:$user" --"$type" "$name" \
    --resource-pattern-type "$pattern" $ops
done

for pair in run-service:"$TRIMUS_KAFKA_PASSWORD_RUN_SERVICE" adapter-lambda-service:"$TRIMUS_KAFKA_PASSWORD_ADAPTER" \
    egress-service:"$TRIMUS_KAFKA_PASSWORD_EGRESS" trimus-worker:"$TRIMUS_KAFKA_PASSWORD_WORKER" \
    admin-ui:"$TRIMUS_KAFKA_PASSWORD_ADMIN_UI"; do
  user=${pair%%:*}
  configs --bootstrap-server "$bootstrap" --alter --entity-type users --entity-name "$user" \
    --add-config "SCRAM-SHA-512=[password=${pair#*:}]"
done
echo "Kafka users and ACLs in place"
