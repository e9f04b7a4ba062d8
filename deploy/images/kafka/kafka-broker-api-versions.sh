#!/bin/sh
# Same path and use as in apache/kafka, for docker-compose's health check.
exec java -Xmx64m -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "/opt/kafka/libs/*" \
    org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
