#!/usr/bin/env bash
# bench/dns/run.sh - Trimus's egress resolver against unbound (allow-listing the same zone), in one invocation.
#
# Uses the shared dnsperf harness in ../shared/bench/dns (peers.sh, bench-all.sh, run-bench.sh) unmodified:
#   1. peers.sh starts the upstream (nsd, authoritative for allowed.test, 127.0.0.1:15300) and unbound
#      (127.0.0.1:15302) unless they already run;
#   2. Kafka + PostgreSQL (the dev launcher, DevInfraMain) on private ports, data in a temp dir, and run-service
#      (egress-service asks it who calls its API; a fresh master key and operator token per run);
#   3. egress-service with its resolver on 127.0.0.1:$DNS_PORT, upstream 127.0.0.1:15300 (and, with
#      BASELINE_APP, a second build as "base" on $BASE_DNS_PORT: before/after in the same invocation);
#   4. registers 127.0.0.1 as a sandbox of a fresh company and allow-lists *.allowed.test;
#   5. warms the JVM ($WARMUP s per scenario, not measured), then bench-all.sh: deny, warm allow and the 90/10
#      mix, interleaved reps, unpinned and pinned, plus a fixed-rate run ($PCTL_QPS) for p50/p99/p99.9;
#   6. prints QPS and latency as ratios to unbound; then, per build and per value of $ANOMALY_QPS, the anomaly
#      latency phase (anomaly-latency.sh): $ANOMALY_QPS distinct denied names per second for $ANOMALY_DURATION s while a probe sandbox (127.0.0.2) times
#      lookup → row listed by the API and → event on the live stream, and p50/p99 of received_at − first_seen; and
#      checks that every denial was persisted as a counted anomaly row (sum of counts in egress_anomaly_events = the
#      recorder's denials counter), with p50/p99 of received_at − first_seen over the whole run's rows;
#   7. stops everything it started (trap), also on failure or Ctrl-C.
# Loopback only. Run it on an otherwise idle machine (no Maven build or test run alongside).
#
# env: REPS=3 DURATION=15 MODES="unpinned pinned" PCTL_QPS=10000 PCTL_DURATION=10 WARMUP=10 PRIO=-10
#      MODES=none: no QPS/latency runs (the anomaly phases and the count check only)
#      ANOMALY_QPS=5000 (a phase per value: "0 5000" = idle, then the flood) ANOMALY_DURATION=20 (0: no anomaly
#      latency phase) ANOMALY_PROBE_GAP=0.25 (s between probes)
#      BASELINE_APP=          path of another build's quarkus-app dir, measured as "base" in the same invocation
#      APP=egress-service/target/quarkus-app   JAVA_OPTS=   extra JVM options of egress-service
#      DNS_PORT=15320 HTTP_PORT=18083 BASE_DNS_PORT=15321 BASE_HTTP_PORT=18084
#      KAFKA_PORT=19092 KAFKA_CONTROLLER_PORT=19093 POSTGRES_PORT=15432 RUN_SERVICE_PORT=18081
#      HARNESS=../shared/bench/dns (relative to the repo root)  BENCH_DNS_DIR=${TMPDIR:-/tmp}/trimus-bench-dns
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
HARNESS=$(cd "${HARNESS:-$ROOT/../shared/bench/dns}" && pwd)
export BENCH_DNS_DIR=${BENCH_DNS_DIR:-${TMPDIR:-/tmp}/trimus-bench-dns}
export REPS=${REPS:-3} DURATION=${DURATION:-15} MODES=${MODES:-"unpinned pinned"} PRIO=${PRIO:--10}
export PCTL_QPS=${PCTL_QPS-10000} PCTL_DURATION=${PCTL_DURATION:-10}
WARMUP=${WARMUP:-10}
APP=${APP:-egress-service/target/quarkus-app}
BASELINE_APP=${BASELINE_APP:-}
DNS_PORT=${DNS_PORT:-15320}; HTTP_PORT=${HTTP_PORT:-18083}
BASE_DNS_PORT=${BASE_DNS_PORT:-15321}; BASE_HTTP_PORT=${BASE_HTTP_PORT:-18084}
RUN_SERVICE_PORT=${RUN_SERVICE_PORT:-18081}
KAFKA_PORT=${KAFKA_PORT:-19092}; KAFKA_CONTROLLER_PORT=${KAFKA_CONTROLLER_PORT:-19093}; POSTGRES_PORT=${POSTGRES_PORT:-15432}
UPSTREAM=127.0.0.1:15300
UNBOUND=127.0.0.1:15302
export PATH="$PATH:/usr/sbin:/sbin"

log() { echo "bench/dns: $*" >&2; }
die() { log "$*"; exit 1; }
. "$ROOT/bench/lib.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/trimus-bench-dns-run.XXXXXX")
log "work dir $WORK"

# ---------------------------------------------------------------- cleanup: only what this script started
started_peers=()
services=()      # "name:pid"
infra_pid=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  for s in "${services[@]}"; do
    local pid=${s##*:}
    kill -TERM "$pid" 2>/dev/null
  done
  for s in "${services[@]}"; do
    local pid=${s##*:}
    for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  if [[ -n $infra_pid ]]; then
    exec 3>&-                       # DevInfraMain stops when its stdin closes
    for _ in $(seq 1 120); do kill -0 "$infra_pid" 2>/dev/null || break; sleep 0.25; done
    kill -TERM "$infra_pid" 2>/dev/null
    wait "$infra_pid" 2>/dev/null
  fi
  ((${#started_peers[@]})) && "$HARNESS/peers.sh" stop "${started_peers[@]}" 2>&1 | sed 's/^/  /' >&2
  rm -rf "$WORK/infra-data" "$WORK/infra.stdin"
  log "stopped everything this run started (logs in $WORK)"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- build what is missing
if [[ ! -s $APP/quarkus-run.jar || ! -s testing/target/classes/io/trimus/testing/infra.classpath ]]; then
  log "building egress-service (and the dev launcher)"
  ./mvnw -B -pl egress-service -am install -DskipTests >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; die "build failed"; }
fi
[[ -z $BASELINE_APP || -s $BASELINE_APP/quarkus-run.jar ]] || die "BASELINE_APP=$BASELINE_APP has no quarkus-run.jar"

# ---------------------------------------------------------------- 1. peers (upstream + unbound)
alive_peer() { [[ -s $BENCH_DNS_DIR/run/$1.pid ]] && kill -0 "$(cat "$BENCH_DNS_DIR/run/$1.pid")" 2>/dev/null; }
for p in upstream unbound; do alive_peer "$p" || started_peers+=("$p"); done
PEERS=unbound "$HARNESS/peers.sh" start >&2 || die "peers.sh start failed"
alive_peer unbound && alive_peer upstream || die "unbound or the upstream is not running"
UNBOUND_PID=$(cat "$BENCH_DNS_DIR/run/unbound.pid")

# ---------------------------------------------------------------- 2. Kafka + PostgreSQL
start_infra "$WORK" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$POSTGRES_PORT"

# ---------------------------------------------------------------- 3. egress-service (+ baseline)
# the load comes from one address: the per-sandbox query budget (built, and on its hot path) must not limit it, in
# either build
OURS_BUDGET="-Dtrimus.egress.dns.per-sandbox-qps=1000000000 -Dtrimus.egress.dns.per-sandbox-burst=1000000000"
# Each build has a database of its own, as two deployments would: sandbox registrations are stored, and both
# register 127.0.0.1 for a company of their own (one database would refuse the second: the address is held). Each
# reads every anomaly into its own database (a consumer group of its own); the check below counts by company.
db_of() { [ "$1" = ours ] && echo postgres || echo "bench_$1"; }
start_service() {  # name app http_port dns_port
  local name=$1 app=$2 http=$3 dns=$4 db; db=$(db_of "$1")
  if [ "$db" != postgres ]; then
    PGPASSWORD=postgres psql -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d postgres -qc "create database $db" \
      || die "could not create database $db for $name"
  fi
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} -Dquarkus.http.port="$http" -Dquarkus.http.host=127.0.0.1 \
      -Dkafka.bootstrap.servers=127.0.0.1:$KAFKA_PORT \
      -Dquarkus.datasource.reactive.url=postgresql://127.0.0.1:$POSTGRES_PORT/$db \
      -Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:$POSTGRES_PORT/$db \
      -Dmp.messaging.connector.smallrye-kafka.group.id=trimus-egress-service-"$name" \
      -Dtrimus.egress.dns.addr=127.0.0.1:"$dns" -Dtrimus.egress.dns.upstream=$UPSTREAM \
      -Dtrimus.run-service.url="$RUN_SERVICE_URL" \
      -Dtrimus.egress.proxy.port=0 -Dtrimus.egress.proxy.transparent-https-port=0 \
      -Dtrimus.egress.proxy.transparent-http-port=0 \
      $OURS_BUDGET \
      -jar "$app/quarkus-run.jar" >"$WORK/$name.log" 2>&1 &
  services+=("$name:$!")
}
wait_ready() {  # name http_port pid
  for _ in $(seq 1 240); do
    curl -fsS -o /dev/null "http://127.0.0.1:$2/q/health/ready" 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || { tail -30 "$WORK/$1.log"; die "$1 exited"; }
    sleep 0.5
  done
  tail -30 "$WORK/$1.log"; die "$1 not ready after 120 s"
}
start_identity "$WORK" "$KAFKA_PORT" "$POSTGRES_PORT" "$RUN_SERVICE_PORT"
services+=("run-service:$identity_pid")
start_service ours "$APP" "$HTTP_PORT" "$DNS_PORT"
OURS_PID=${services[-1]##*:}
if [[ -n $BASELINE_APP ]]; then
  start_service base "$BASELINE_APP" "$BASE_HTTP_PORT" "$BASE_DNS_PORT"
  BASE_PID=${services[-1]##*:}
fi
wait_ready ours "$HTTP_PORT" "$OURS_PID"
if [[ -n $BASELINE_APP ]]; then wait_ready base "$BASE_HTTP_PORT" "$BASE_PID"; fi

# ---------------------------------------------------------------- 4. sandbox 127.0.0.1 + allowlist *.allowed.test
uuid() { cat /proc/sys/kernel/random/uuid; }
declare -A COMPANY
register() {  # name http_port dns_port
  local name=$1 http=$2 dns=$3 company; company=$(uuid)
  COMPANY[$name]=$company
  curl -fsS -X PUT "http://127.0.0.1:$http/internal/sandboxes/127.0.0.1" -H "$BENCH_SERVICE" \
    -H 'Content-Type: application/json' \
    -d "{\"company_id\":\"$company\",\"agent_id\":\"$(uuid)\",\"run_id\":\"$(uuid)\",\"container_id\":\"bench-dns-$name\"}" >/dev/null
  curl -fsS -X PUT "http://127.0.0.1:$http/api/companies/$company/egress/allowlist" -H "$BENCH_OPERATOR" \
    -H 'Content-Type: application/json' -d '{"entries":["*.allowed.test"]}' >/dev/null
  local a d
  for _ in $(seq 1 20); do
    a=$(dig +short +time=1 +tries=1 -p "$dns" @127.0.0.1 a0001.allowed.test A 2>/dev/null | head -1)
    d=$(dig +time=1 +tries=1 -p "$dns" @127.0.0.1 x.denied.test A 2>/dev/null | grep -o 'status: [A-Z]*' | head -1)
    [[ ($a == 198.18.* || $a == 127.0.0.1) && $d == 'status: NXDOMAIN' ]] && break
    sleep 0.5
  done
  # allowed names are steered to the egress proxy (on the resolver's address) and answered locally; a build without
  # the proxy forwards them (the upstream's 198.18.0.1)
  [[ ($a == 198.18.* || $a == 127.0.0.1) && $d == 'status: NXDOMAIN' ]] \
    || die "$name: allowed->'$a' denied->'$d' (expected 127.0.0.1 steered or 198.18.0.1, and NXDOMAIN)"
  log "$name 127.0.0.1:$dns: sandbox 127.0.0.1 of company $company, allowed->$a denied->${d#status: }"
}
register ours "$HTTP_PORT" "$DNS_PORT"
if [[ -n $BASELINE_APP ]]; then register base "$BASE_HTTP_PORT" "$BASE_DNS_PORT"; fi

# ---------------------------------------------------------------- 5. warm-up (JIT), then the measured runs
targets=("ours=127.0.0.1:$DNS_PORT@$OURS_PID")
if [[ -n $BASELINE_APP ]]; then targets+=("base=127.0.0.1:$BASE_DNS_PORT@$BASE_PID"); fi
if ((WARMUP > 0)) && [[ $MODES != none ]]; then
  for tg in "${targets[@]}"; do
    addr=${tg#*=}; addr=${addr%@*}
    log "warming ${tg%%=*} up: ${WARMUP}s per scenario (not measured)"
    DURATION=$WARMUP REPS=1 PCTL_QPS= "$HARNESS/run-bench.sh" "$addr" >/dev/null 2>>"$WORK/warmup.log"
  done
  sleep 12   # let the warm-up's anomaly windows close before measuring
fi

metric() {  # http_port name -> value (0 when absent)
  curl -fsS -H "$BENCH_SERVICE" "http://127.0.0.1:$1/q/metrics" 2>/dev/null | awk -v m="$2" '$1==m {v=$2} END {printf "%.0f\n", v+0}'
}
targets+=("unbound=$UNBOUND@$UNBOUND_PID")
if [[ $MODES == none ]]; then
  : >"$WORK/bench-all.txt"
else
log "bench-all.sh ${targets[*]} (MODES=$MODES REPS=$REPS DURATION=$DURATION PCTL_QPS=$PCTL_QPS)"
"$HARNESS/bench-all.sh" "${targets[@]}" | tee "$WORK/bench-all.txt"
fi
RESULTS=$(awk '/^# results in /{print $4}' "$WORK/bench-all.txt")

# ---------------------------------------------------------------- 6. report
{
echo
echo "## DNS benchmark $(date -u +%Y-%m-%dT%H:%MZ) - $(nproc) cpus, $(uname -r), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "REPS=$REPS DURATION=${DURATION}s MODES=\"$MODES\" PCTL_QPS=$PCTL_QPS warm-up ${WARMUP}s/scenario; medians; raw: $RESULTS"
awk -v pctl="$PCTL_QPS" '
  /^# medians/ {on=1; next}
  !on || /^#/ {next}
  $3 !~ /@/ { k=$1" "$3; q[$2,k]=$4; avg[$2,k]=$5; cpu[$2,k]=$7; if(!(k in seen)){seen[k]=1; ord[++n]=k}
              if(!($2 in tgt) && $2!="unbound"){tgt[$2]=1; tg[++t]=$2} }
  $3 ~ /@/  { split($3,s,"@"); k=$1" "s[1]; p50[$2,k]=$7; p99[$2,k]=$9; p999[$2,k]=$10; pq[$2,k]=$4; pc[$2,k]=$11
              if(!(k in pseen)){pseen[k]=1; pord[++pn]=k} }
  function r(a,b){ return (b>0)? sprintf("%.2f×", a/b) : "n/a" }
  END {
    print ""
    printf "| mode | scenario | unbound QPS"; for(i=1;i<=t;i++) printf " | %s QPS | %s / unbound", tg[i], tg[i]
    printf " | unbound avg ms"; for(i=1;i<=t;i++) printf " | %s avg ms", tg[i]
    printf " | unbound CPU%%"; for(i=1;i<=t;i++) printf " | %s CPU%%", tg[i]; print " |"
    printf "|---|---|---:"; for(i=1;i<=t;i++) printf "|---:|---:"; printf "|---:"; for(i=1;i<=t;i++) printf "|---:"
    printf "|---:"; for(i=1;i<=t;i++) printf "|---:"; print "|"
    for(j=1;j<=n;j++){ k=ord[j]; split(k,m," ")
      printf "| %s | %s | %d", m[1], m[2], q["unbound",k]
      for(i=1;i<=t;i++) printf " | %d | **%s**", q[tg[i],k], r(q[tg[i],k], q["unbound",k])
      printf " | %.3f", avg["unbound",k]; for(i=1;i<=t;i++) printf " | %.3f", avg[tg[i],k]
      printf " | %s", cpu["unbound",k]; for(i=1;i<=t;i++) printf " | %s", cpu[tg[i],k]; print " |" }
    if (pn) {
      print ""
      printf "| mode | scenario @ %s QPS | unbound p50 / p99 / p99.9 ms", pctl
      for(i=1;i<=t;i++) printf " | %s p50 / p99 / p99.9 ms | %s p99 / unbound", tg[i], tg[i]; print " |"
      printf "|---|---|---:"; for(i=1;i<=t;i++) printf "|---:|---:"; print "|"
      for(j=1;j<=pn;j++){ k=pord[j]; split(k,m," ")
        printf "| %s | %s | %s / %s / %s", m[1], m[2], p50["unbound",k], p99["unbound",k], p999["unbound",k]
        for(i=1;i<=t;i++) printf " | %s / **%s** / %s | %s", p50[tg[i],k], p99[tg[i],k], p999[tg[i],k], r(p99[tg[i],k], p99["unbound",k])
        print " |" }
    }
  }' "$WORK/bench-all.txt"
} | tee "$WORK/report.md"

# Denied names never reached the upstream (per-run deltas the harness logged).
if [[ -n $RESULTS ]]; then
  for f in "$RESULTS"/*-ours.log "$RESULTS"/*-base.log; do
    [[ -e $f ]] || continue
    awk -v f="${f##*/}" '/^# deny rep/ {for(i=1;i<=NF;i++) if($i ~ /^upstream_delta=/){split($i,a,"="); s+=a[2]; n++}}
      END{if(n) printf "%s: queries that reached the upstream during %d deny runs: %d\n", f, n, s}' "$f"
  done | tee -a "$WORK/report.md"
fi

# ---------------------------------------------------------------- 6b. anomaly latency under a flood of distinct denials
. "$ROOT/bench/dns/anomaly-latency.sh"
echo | tee -a "$WORK/report.md"
for qps in $ANOMALY_QPS; do
  anomaly_phase ours "$HTTP_PORT" "$DNS_PORT" "${COMPANY[ours]}" "$qps" | tee -a "$WORK/report.md"
  if [[ -n $BASELINE_APP ]]; then
    anomaly_phase base "$BASE_HTTP_PORT" "$BASE_DNS_PORT" "${COMPANY[base]}" "$qps" | tee -a "$WORK/report.md"
  fi
done

# ---------------------------------------------------------------- 7. no anomaly lost
check_anomalies() {  # name http_port
  local name=$1 http=$2 company=${COMPANY[$1]} denials emitted failures overflow persisted rows sum
  sleep 12  # the last anomaly windows close (TRIMUS_EGRESS_ANOMALIES_WINDOW, 10 s)
  denials=$(metric "$http" trimus_egress_anomalies_denials_total)
  for _ in $(seq 1 120); do
    read -r rows sum < <(PGPASSWORD=postgres psql -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d "$(db_of "$name")" -Atq -F ' ' \
        -c "select count(*), coalesce(sum(count),0) from egress.egress_anomaly_events where company_id='$company'" 2>/dev/null || echo "0 0")
    [[ ${sum:-0} -ge $denials ]] && break
    sleep 1
  done
  emitted=$(metric "$http" trimus_egress_anomalies_emitted_total)
  failures=$(metric "$http" trimus_egress_anomalies_publish_failures_total)
  overflow=$(metric "$http" trimus_egress_anomalies_overflow_denials_total)
  printf '%s: denials recorded %s, anomaly events emitted %s (publish failures %s), folded as overflow %s; persisted: %s rows, sum(count) %s -> %s\n' \
    "$name" "$denials" "$emitted" "$failures" "$overflow" "${rows:-?}" "${sum:-?}" \
    "$([[ ${sum:-0} -eq $denials ]] && echo 'every denial counted' || echo "MISMATCH: $((denials - ${sum:-0})) denials not persisted")"
  anomaly_rows_latency "$name" "$company"
}
echo | tee -a "$WORK/report.md"
check_anomalies ours "$HTTP_PORT" | tee -a "$WORK/report.md"
if [[ -n $BASELINE_APP ]]; then check_anomalies base "$BASE_HTTP_PORT" | tee -a "$WORK/report.md"; fi
echo "# report: $WORK/report.md"
