#!/usr/bin/env bash
# ./trimus up: build, then run the whole system on embedded Kafka and PostgreSQL (foreground; Ctrl-C stops all).
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
. "$ROOT/scripts/demo-image.sh"
. "$ROOT/scripts/gvisor.sh"

# Readiness: a service is ready when its /q/health/ready says UP. SERVICES holds "name port pid" per started service.
SERVICES=()
READY_DEADLINE=0
SETUP_LINK_FILE=.trimus/operator-setup-link   # the bootstrap operator's setup link (run-service writes it, 0600)
EGRESS_TMP=""     # egress-service's own temporary directory when it runs as nobody

ready() { curl -fsS -o /dev/null --max-time 3 "http://127.0.0.1:$1/q/health/ready" 2>/dev/null; }

# Why a service is not ready, in one line: its exit, or the checks its readiness endpoint reports.
not_ready_reason() { # name port pid
  if ! kill -0 "$3" 2>/dev/null; then echo "exited"; return; fi
  local body
  body=$(curl -sS --max-time 3 "http://127.0.0.1:$2/q/health/ready" 2>&1 | tr -s ' \n' ' ' | cut -c1-300)
  echo "not ready at http://127.0.0.1:$2/q/health/ready: ${body:-no answer}"
}

# Waits until every named service (all started ones when none is named) is ready, within the deadline of ./trimus
# up (TRIMUS_UP_READY_TIMEOUT). A service that exits or is still not ready at the deadline ends ./trimus up with
# which one it is, why, and its log.
await_ready() { # [name...]
  local wanted=("$@") entry name port pid pending
  while :; do
    pending=()
    for entry in "${SERVICES[@]}"; do
      read -r name port pid <<<"$entry"
      if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
      kill -0 "$pid" 2>/dev/null || { tail -30 ".trimus/logs/$name.log" >&2; die "$name exited before it was ready (log: .trimus/logs/$name.log)"; }
      ready "$port" || pending+=("$entry")
    done
    [ ${#pending[@]} -eq 0 ] && return 0
    if [ $SECONDS -ge $READY_DEADLINE ]; then
      for entry in "${pending[@]}"; do
        read -r name port pid <<<"$entry"
        log "$name: $(not_ready_reason "$name" "$port" "$pid") (log: .trimus/logs/$name.log)"
        tail -15 ".trimus/logs/$name.log" | sed 's/^/    /' >&2
      done
      die "not ready after ${TRIMUS_UP_READY_TIMEOUT:-240} s: $(for e in "${pending[@]}"; do printf '%s ' "${e%% *}"; done)(TRIMUS_UP_READY_TIMEOUT)"
    fi
    sleep 0.5
  done
}

up() {
  mkdir -p .trimus/logs
  ensure_docker
  # gVisor when the operator lets agents ask for it: installed and registered with the engine (scripts/gvisor.sh)
  local runtimes=${TRIMUS_DOCKER_RUNTIMES:-runc}
  if [[ ",${runtimes// /}," == *,runsc,* ]]; then ensure_runsc; fi
  build
  demo_image
  local kafka_port=${TRIMUS_KAFKA_PORT:-9092} pg_port=${TRIMUS_POSTGRES_PORT:-5432}
  local cp="$ROOT/testing/target/classes:$(cat testing/target/classes/io/trimus/testing/infra.classpath)"
  local pids=()
  local infra_in=.trimus/infra.stdin
  rm -f "$infra_in"; mkfifo "$infra_in"

  stop_all() {
    trap - INT TERM EXIT
    log "stopping"
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -KILL "$pid" 2>/dev/null || true
    done
    exec 3>&- || true      # infra stops when its stdin closes (no 2>/dev/null: on exec it would silence the shell)
    [ -n "${infra_pid:-}" ] && wait "$infra_pid" 2>/dev/null || true
    rm -f "$infra_in"
    [ -n "$EGRESS_TMP" ] && rm -rf "$EGRESS_TMP"
    log "stopped"
  }
  trap 'stop_all; exit 130' INT
  trap 'stop_all; exit 143' TERM
  trap 'stop_all' EXIT

  log "starting Kafka (127.0.0.1:$kafka_port) and PostgreSQL (127.0.0.1:$pg_port), data in .trimus/data"
  java -Xmx256m -cp "$cp" io.trimus.testing.DevInfraMain --data-dir .trimus/data \
      --kafka-port "$kafka_port" --postgres-port "$pg_port" <"$infra_in" >.trimus/logs/infra.log 2>&1 &
  infra_pid=$!
  exec 3>"$infra_in"
  for _ in $(seq 1 240); do
    grep -q '^READY' .trimus/logs/infra.log 2>/dev/null && break
    kill -0 "$infra_pid" 2>/dev/null || { cat .trimus/logs/infra.log; die "Kafka/PostgreSQL did not start"; }
    sleep 0.5
  done
  grep -q '^READY' .trimus/logs/infra.log || die "Kafka/PostgreSQL not ready after 120 s (.trimus/logs/infra.log)"

  # Company secrets (and the egress CA's key) are encrypted with TRIMUS_ENCRYPTION_KEY; without one set, a key generated
  # on the first start is kept in .trimus/encryption.key (0600). It goes to the services in their environment, not on
  # the command line.
  local key_file=.trimus/encryption.key
  if [ -z "${TRIMUS_ENCRYPTION_KEY:-}" ]; then
    if [ ! -s "$key_file" ]; then
      (umask 077 && head -c 32 /dev/urandom | base64 >"$key_file")
      log "generated TRIMUS_ENCRYPTION_KEY in $key_file (keep it: secrets stored with it cannot be read without it)"
    fi
    TRIMUS_ENCRYPTION_KEY=$(cat "$key_file")
  fi

  READY_DEADLINE=$((SECONDS + ${TRIMUS_UP_READY_TIMEOUT:-240}))
  # Loopback only: a sandbox on the egress network can reach the host through its gateway, so nothing but
  # egress-service's resolver and proxy may listen on the host's other addresses.
  # The services' memory settings (docs/deployment.md#memory, measured in docs/benchmarks.md#memory): the serial
  # collector and a heap of 16 MiB growing to at most 256 MiB, half of the 512 MiB limit k8s gives each pod; without
  # them the JVM sizes itself by the host (a 1/64 initial and a 1/4 maximum heap, G1) and every service boots at
  # 210-350 MiB; the native heap is given back to the system every 5 s (glibc keeps what the JIT and boot freed,
  # ~35 MiB per service). TRIMUS_SERVICE_JAVA_OPTS replaces them; two malloc arenas instead of one per thread group.
  local jvm_opts
  read -r -a jvm_opts <<<"${TRIMUS_SERVICE_JAVA_OPTS:--XX:+UseSerialGC -Xms16m -Xmx256m -XX:+UnlockExperimentalVMOptions -XX:TrimNativeHeapInterval=5000}"
  export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
  local common=("${jvm_opts[@]}" -Dkafka.bootstrap.servers=127.0.0.1:$kafka_port -Dquarkus.http.host=127.0.0.1)
  # The first operator: an account whose one-time setup link run-service writes to .trimus/operator-setup-link (0600,
  # never to its log; printed below), and a token for scripts when TRIMUS_BOOTSTRAP_OPERATOR_TOKEN is set; never a
  # default password.
  local operator_email=${TRIMUS_BOOTSTRAP_OPERATOR_EMAIL:-operator@trimus.local}
  rm -f "$SETUP_LINK_FILE"
  TRIMUS_ENCRYPTION_KEY=$TRIMUS_ENCRYPTION_KEY TRIMUS_BOOTSTRAP_OPERATOR_EMAIL=$operator_email \
  TRIMUS_BOOTSTRAP_SETUP_LINK_FILE="$ROOT/$SETUP_LINK_FILE" java "${common[@]}" \
      -Dquarkus.datasource.reactive.url=postgresql://127.0.0.1:$pg_port/postgres \
      -Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:$pg_port/postgres \
      -Dtrimus.egress.service-url=http://127.0.0.1:8083 \
      -jar run-service/target/quarkus-app/quarkus-run.jar >.trimus/logs/run-service.log 2>&1 &
  pids+=($!)
  SERVICES+=("run-service 8081 $!")
  TRIMUS_ENCRYPTION_KEY=$TRIMUS_ENCRYPTION_KEY java "${common[@]}" -jar adapter-lambda-service/target/quarkus-app/quarkus-run.jar \
      >.trimus/logs/adapter-lambda-service.log 2>&1 &
  pids+=($!)
  SERVICES+=("adapter-lambda-service 8082 $!")
  await_ready run-service adapter-lambda-service
  # The resolver listens on the egress network's gateway, which exists once the adapter has ensured the network.
  local dns_addr=${TRIMUS_EGRESS_DNS_ADDR:-172.30.0.1:53}
  # An internal network keeps sandboxes off everything but the host itself: as root, lock the host side too (only
  # egress-service's ports on the gateway: DNS udp/tcp 53, the proxy's tcp 80, 443 and 3128, or what the
  # TRIMUS_EGRESS_PROXY_*PORT variables say), with the rules docker-compose.yml's egress-firewall uses; removed on stop.
  local gateway=${TRIMUS_EGRESS_NETWORK_GATEWAY:-172.30.0.1}
  if [ "$(id -u)" = 0 ] && command -v iptables >/dev/null 2>&1; then
    TRIMUS_EGRESS_NETWORK_BRIDGE_NAME=${TRIMUS_EGRESS_NETWORK_BRIDGE_NAME:-trimus-egress0} \
    TRIMUS_EGRESS_NETWORK_SUBNET=${TRIMUS_EGRESS_NETWORK_SUBNET:-172.30.0.0/24} \
    TRIMUS_EGRESS_NETWORK_GATEWAY=$gateway TRIMUS_EGRESS_RESOLVER_IP=$gateway \
      sh deploy/egress-firewall/egress-firewall.sh run >.trimus/logs/egress-firewall.log 2>&1 &
    pids+=($!)
    for _ in $(seq 1 120); do grep -q 'may reach' .trimus/logs/egress-firewall.log 2>/dev/null && break; sleep 0.25; done
    grep -q 'may reach' .trimus/logs/egress-firewall.log \
      || { cat .trimus/logs/egress-firewall.log; die "could not lock the host side of the egress network"; }
  else
    log "warning: not root (or no iptables): sandboxes can reach services listening on this host's egress address $gateway"
  fi
  # egress-service binds 53, 80 and 443 on the gateway. As root it runs as nobody with CAP_NET_BIND_SERVICE as its
  # only capability (ambient, nothing else in its bounding set, no new privileges): the service sandboxes talk to
  # holds neither root's files nor the Docker socket. Not root: it runs as the caller, who must be able to bind them.
  local as_service=() egress_opts=()
  if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    EGRESS_TMP=$(mktemp -d "${TMPDIR:-/tmp}/trimus-egress-service.XXXXXX")
    chown 65534:65534 "$EGRESS_TMP"
    as_service=(setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs
                --inh-caps=-all,+net_bind_service --ambient-caps=-all,+net_bind_service --bounding-set=-all,+net_bind_service)
    egress_opts=(-Djava.io.tmpdir="$EGRESS_TMP" -Duser.home="$EGRESS_TMP" -Dvertx.cacheDirBase="$EGRESS_TMP/vertx-cache")
  fi
  # The egress CA's private key is stored encrypted under TRIMUS_ENCRYPTION_KEY (setpriv keeps the environment).
  TRIMUS_ENCRYPTION_KEY=$TRIMUS_ENCRYPTION_KEY "${as_service[@]}" java "${common[@]}" "${egress_opts[@]}" \
      -Dquarkus.datasource.reactive.url=postgresql://127.0.0.1:$pg_port/postgres \
      -Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:$pg_port/postgres \
      -Dtrimus.egress.dns.addr="$dns_addr" \
      -jar egress-service/target/quarkus-app/quarkus-run.jar >.trimus/logs/egress-service.log 2>&1 &
  pids+=($!)
  SERVICES+=("egress-service 8083 $!")
  await_ready egress-service
  # The dashboard last: it reads the others. Loopback only: it has no sign-in yet.
  java "${common[@]}" -Dquarkus.http.port=8080 \
      -Dtrimus.run-service-url=http://127.0.0.1:8081 -Dtrimus.egress-service-url=http://127.0.0.1:8083 \
      -jar admin-ui/target/quarkus-app/quarkus-run.jar >.trimus/logs/admin-ui.log 2>&1 &
  pids+=($!)
  SERVICES+=("admin-ui 8080 $!")
  # Ready means all four at once: one that went down while the next started is caught here.
  await_ready
  cat <<MSG

  Trimus is ready: run-service, adapter-lambda-service, egress-service and admin-ui all report UP
  (logs in .trimus/logs, data in .trimus/data). Ctrl-C stops everything.

    dashboard              http://127.0.0.1:8080/
    run-service API        http://127.0.0.1:8081/api/companies
    API docs (Swagger UI)  http://127.0.0.1:8081/q/swagger-ui
    adapter service        http://127.0.0.1:8082/q/health
    egress-service API     http://127.0.0.1:8083/api/companies/{id}/egress/allowlist
    egress DNS resolver    $dns_addr (udp+tcp), for containers on trimus-egress-allowlist
    egress proxy           ${dns_addr%:*}:${TRIMUS_EGRESS_PROXY_PORT:-3128} (HTTPS_PROXY), transparent on ${dns_addr%:*}:${TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT:-443} and :${TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTP_PORT:-80}
    Kafka                  127.0.0.1:$kafka_port
    PostgreSQL             postgresql://postgres@127.0.0.1:$pg_port/postgres (the services log in as trimus_run, trimus_egress)
    demo image             trimus/busybox:local

MSG
  sign_in_help "$operator_email"
  wait -n "${pids[@]}" "$infra_pid" || true
  log "a component exited; see .trimus/logs"
}

# How to sign in the first time: the setup link run-service wrote at this start (while the operator has no password),
# else the sign-in page; and the bootstrap token for scripts when one is set. Printed to this terminal only.
sign_in_help() {
  local link=""
  # no file once the operator has a password
  [ -s "$SETUP_LINK_FILE" ] && link=$(head -1 "$SETUP_LINK_FILE")
  if [ -n "$link" ]; then
    printf '  First sign-in: open %s\n  and set a password for operator %s (one use; a new link at each start until then).\n' "$link" "$1"
  else
    printf '  Sign in at http://127.0.0.1:8080/login as %s (or any account an admin added).\n' "$1"
  fi
  if [ -n "${TRIMUS_BOOTSTRAP_OPERATOR_TOKEN:-}" ]; then
    printf '  Scripts: curl -H "Authorization: Bearer $TRIMUS_BOOTSTRAP_OPERATOR_TOKEN" http://127.0.0.1:8081/api/me\n'
  else
    printf '  Scripts: create a token on the dashboard, or start with TRIMUS_BOOTSTRAP_OPERATOR_TOKEN=$(openssl rand -hex 32).\n'
  fi
  printf '\n'
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  up "$@"
fi
