#!/usr/bin/env bash
# bench/proxy/run.sh - egress-service's explicit proxy against squid (Debian's package, an allow-listing CONNECT
# proxy) and a direct connection, in one invocation, on loopback:
#   1. a test certificate (ECDSA P-256) for $HOST; the "outside" host (ProxyBench.java origin): HTTPS on
#      $HTTPS_IP:443 and a stand-in upstream DNS on $UPSTREAM mapping $HOST to it;
#   2. Kafka + PostgreSQL (the dev launcher, DevInfraMain) on private ports, data in a temp dir;
#   3. the real egress-service (egress-service/target/quarkus-app) with its resolver on 127.0.0.1:$DNS_PORT and so
#      its proxy on 127.0.0.1:$PROXY_PORT, upstream $UPSTREAM, TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE=127.0.0.0/8 (the
#      origin is on loopback), everything else at its defaults (decision log, limits); the sandboxes $SOURCES
#      registered for one company whose allowlist is $HOST;
#   4. squid on 127.0.0.1:$SQUID_PORT: CONNECT to 443 only, from $SOURCES only, to $HOST only (hosts_file), no
#      cache, access log on (as egress-service's decision log);
#   5. checks that both proxies carry an allowed CONNECT and refuse another host, then ProxyBench.java client:
#      new HTTPS connections per second (TCP + CONNECT + full TLS 1.3 handshake + a 64-byte GET, $CONCURRENCY
#      at once, $ROUNDS x $SECONDS s per path after $WARMUP s), latency of $LATENCY_CONNECTIONS sequential
#      connections per path, bulk $BULK_BYTES through one tunnel ($BULK_REPS times); paths interleaved;
#   6. per request through the two kinds of intercepted host (RequestBench.java): sandbox $RULED_SOURCE of a second
#      company whose allowlist lists $HOST with request rules, and sandbox $MASKED_SOURCE (the first company) holding
#      a masked secret for $HOST; both trust the egress CA; $REQUESTS keep-alive requests on one connection and
#      $REQUEST_CONNECTIONS new connections per path after $REQUEST_WARMUP, interleaved; p50/p99 and ruled - masked;
#   7. prints the report (ratios trimus/squid, trimus/direct, added latency) and stops what it started (trap).
# Run it as root (the origin listens on 443) on an otherwise idle machine.
#
# env: BULK_BYTES=1073741824 (e.g. 104857600 for a quick run) BULK_REPS=3 CONCURRENCY=16 ROUNDS=3 SECONDS_PER=10
#      WARMUP=60 (s per path: the JIT needs a few thousand connections) LATENCY_CONNECTIONS=2000
#      REQUESTS=5000 REQUEST_CONNECTIONS=1000 REQUEST_WARMUP=5000 ONLY_REQUESTS= (1: step 6 only, no squid/direct run)
#      PROFILE= (1: a JFR recording of egress-service from PROFILE_DELAY=60 s after its start, its hottest frames
#      printed at the end) APP=egress-service/target/quarkus-app JAVA_OPTS= (egress-service's)
#      DNS_PORT=15340 HTTP_PORT=18093 PROXY_PORT=13128 SQUID_PORT=13129 UPSTREAM=127.0.0.1:15353
#      KAFKA_PORT=19192 KAFKA_CONTROLLER_PORT=19193 POSTGRES_PORT=15532 RUN_SERVICE_PORT=18181
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
HOST=bench.example.test
HTTPS_IP=127.0.0.5
SOURCES=127.0.0.2-127.0.0.17
BULK_BYTES=${BULK_BYTES:-1073741824}; BULK_REPS=${BULK_REPS:-3}
CONCURRENCY=${CONCURRENCY:-16}; ROUNDS=${ROUNDS:-3}; SECONDS_PER=${SECONDS_PER:-10}; WARMUP=${WARMUP:-60}
LATENCY_CONNECTIONS=${LATENCY_CONNECTIONS:-2000}; PROFILE=${PROFILE:-}
REQUESTS=${REQUESTS:-5000}; REQUEST_CONNECTIONS=${REQUEST_CONNECTIONS:-1000}; REQUEST_WARMUP=${REQUEST_WARMUP:-5000}
ONLY_REQUESTS=${ONLY_REQUESTS:-}
RULED_SOURCE=127.0.0.18; MASKED_SOURCE=127.0.0.19
APP=${APP:-egress-service/target/quarkus-app}
DNS_PORT=${DNS_PORT:-15340}; HTTP_PORT=${HTTP_PORT:-18093}; PROXY_PORT=${PROXY_PORT:-13128}; SQUID_PORT=${SQUID_PORT:-13129}
UPSTREAM=${UPSTREAM:-127.0.0.1:15353}
RUN_SERVICE_PORT=${RUN_SERVICE_PORT:-18181}
KAFKA_PORT=${KAFKA_PORT:-19192}; KAFKA_CONTROLLER_PORT=${KAFKA_CONTROLLER_PORT:-19193}; POSTGRES_PORT=${POSTGRES_PORT:-15532}
SQUID=/usr/sbin/squid
export PATH="$PATH:/usr/sbin:/sbin"

log() { echo "bench/proxy: $*" >&2; }
die() { log "$*"; exit 1; }
. "$ROOT/bench/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root: the origin listens on $HTTPS_IP:443, where the proxies' CONNECT goes"
if [ ! -x $SQUID ]; then
  command -v apt-get >/dev/null 2>&1 || die "squid is needed (Debian: apt-get install squid)"
  log "installing squid with apt"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq squid >/dev/null
fi
for tool in openssl curl java; do command -v $tool >/dev/null 2>&1 || die "$tool is needed"; done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/trimus-bench-proxy.XXXXXX")
chmod 755 "$WORK"
log "work dir $WORK"

# ---------------------------------------------------------------- cleanup: only what this script started
pids=()          # "name:pid", stopped in reverse
infra_pid=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]##*:}" 2>/dev/null; done
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    local pid=${pids[i]##*:}
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
  rm -rf "$WORK/infra-data" "$WORK/infra.stdin"
  log "stopped everything this run started (logs in $WORK)"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pid_of() { local p; for p in "${pids[@]}"; do [ "${p%%:*}" = "$1" ] && echo "${p##*:}"; done; }

# ---------------------------------------------------------------- build what is missing
if [[ ! -s $APP/quarkus-run.jar || ! -s testing/target/classes/io/trimus/testing/infra.classpath ]]; then
  log "building egress-service and the dev launcher (package, no install)"
  ./mvnw -B -q -pl egress-service,testing -am package -DskipTests >"$WORK/build.log" 2>&1 \
    || { tail -40 "$WORK/build.log"; die "build failed"; }
fi
mkdir -p "$WORK/classes"
javac -d "$WORK/classes" bench/proxy/ProxyBench.java bench/proxy/RequestBench.java
mkdir -p "$WORK/masks-classes"
javac -d "$WORK/masks-classes" -cp "$APP/lib/main/*" bench/proxy/BenchMasks.java

# ---------------------------------------------------------------- 1. certificate, origin and stand-in DNS
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=$HOST" \
    -addext "subjectAltName=DNS:$HOST" -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
openssl pkcs12 -export -in "$WORK/cert.pem" -inkey "$WORK/key.pem" -name bench -passout pass:bench -out "$WORK/origin.p12"
java -Xmx512m -cp "$WORK/classes" ProxyBench origin --host "$HOST" --https-ip "$HTTPS_IP" --https-port 443 \
    --p12 "$WORK/origin.p12" --dns "$UPSTREAM" >"$WORK/origin.log" 2>&1 &
pids+=("origin:$!")
for _ in $(seq 1 60); do grep -q '^READY' "$WORK/origin.log" && break; sleep 0.25; done
grep -q '^READY' "$WORK/origin.log" || { cat "$WORK/origin.log"; die "the origin did not start"; }

# ---------------------------------------------------------------- 2. Kafka + PostgreSQL
start_infra "$WORK" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$POSTGRES_PORT"
start_identity "$WORK" "$KAFKA_PORT" "$POSTGRES_PORT" "$RUN_SERVICE_PORT"
pids+=("run-service:$identity_pid")

# ---------------------------------------------------------------- 3. egress-service
jfr=()
[ -n "$PROFILE" ] && jfr=(-XX:StartFlightRecording=filename="$WORK/egress.jfr",settings=profile,delay=${PROFILE_DELAY:-60}s)
# Transparent listeners off (the variables a build without them ignores): this bench measures the explicit proxy.
# shellcheck disable=SC2086
TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT=-1 TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTP_PORT=-1 \
TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE=127.0.0.0/8 TRIMUS_EGRESS_PROXY_UPSTREAM_CA_FILE="$WORK/cert.pem" \
java ${JAVA_OPTS:-} "${jfr[@]}" -Dquarkus.http.port="$HTTP_PORT" -Dquarkus.http.host=127.0.0.1 \
    -Dkafka.bootstrap.servers=127.0.0.1:$KAFKA_PORT \
    -Dquarkus.datasource.reactive.url=postgresql://127.0.0.1:$POSTGRES_PORT/postgres \
    -Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:$POSTGRES_PORT/postgres \
    -Dtrimus.egress.dns.addr=127.0.0.1:"$DNS_PORT" -Dtrimus.egress.dns.upstream="$UPSTREAM" \
    -Dtrimus.egress.proxy.port="$PROXY_PORT" -Dtrimus.run-service.url="$RUN_SERVICE_URL" \
    -jar "$APP/quarkus-run.jar" >"$WORK/egress-service.log" 2>&1 &
pids+=("trimus:$!")
for _ in $(seq 1 240); do
  curl -fsS -o /dev/null "http://127.0.0.1:$HTTP_PORT/q/health/ready" 2>/dev/null && break
  kill -0 "$(pid_of trimus)" 2>/dev/null || { tail -30 "$WORK/egress-service.log"; die "egress-service exited"; }
  sleep 0.5
done
curl -fsS -o /dev/null "http://127.0.0.1:$HTTP_PORT/q/health/ready" || die "egress-service not ready after 120 s"
uuid() { cat /proc/sys/kernel/random/uuid; }
company=$(uuid)
first=${SOURCES%-*}; last=${SOURCES#*-}; prefix=${first%.*}
for i in $(seq "${first##*.}" "${last##*.}"); do
  curl -fsS -X PUT "http://127.0.0.1:$HTTP_PORT/internal/sandboxes/$prefix.$i" -H "$BENCH_SERVICE" \
    -H 'Content-Type: application/json' \
    -d "{\"company_id\":\"$company\",\"agent_id\":\"$(uuid)\",\"run_id\":\"$(uuid)\",\"container_id\":\"bench-proxy-$i\"}" >/dev/null
done
curl -fsS -X PUT "http://127.0.0.1:$HTTP_PORT/api/companies/$company/egress/allowlist" -H "$BENCH_OPERATOR" \
  -H 'Content-Type: application/json' -d "{\"entries\":[\"$HOST\"]}" >/dev/null
log "egress-service: proxy 127.0.0.1:$PROXY_PORT, sandboxes $SOURCES of company $company, allowlist $HOST"
# the two intercepted kinds of host: request rules (a company of its own) and a masked secret (the first company)
ruled_company=$(uuid)
curl -fsS -X PUT "http://127.0.0.1:$HTTP_PORT/api/companies/$ruled_company/egress/allowlist" -H "$BENCH_OPERATOR" \
  -H 'Content-Type: application/json' \
  -d "{\"entries\":[{\"host\":\"$HOST\",\"methods\":[\"GET\",\"HEAD\"],\"paths\":[\"/small\",\"/bulk\"]}]}" >/dev/null
curl -fsS -X PUT "http://127.0.0.1:$HTTP_PORT/internal/sandboxes/$RULED_SOURCE" -H "$BENCH_SERVICE" \
  -H 'Content-Type: application/json' \
  -d "{\"company_id\":\"$ruled_company\",\"agent_id\":\"$(uuid)\",\"run_id\":\"$(uuid)\",\"container_id\":\"bench-ruled\"}" >/dev/null
curl -fsS -D "$WORK/egress-ca.head" -o "$WORK/egress-ca.pem" "http://127.0.0.1:$HTTP_PORT/api/egress/ca"
ca_fingerprint=$(awk -F': *' 'tolower($1) == "x-trimus-ca-fingerprint" { gsub(/\r/, "", $2); print $2 }' "$WORK/egress-ca.head")
surrogate="sk-bench-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
masked_run=$(uuid)
sealed=$(java -cp "$WORK/masks-classes:$APP/lib/main/*" BenchMasks "$masked_run" "$MASKED_SOURCE" "$HOST" "$surrogate" \
  "sk-value-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')")
curl -fsS -X PUT "http://127.0.0.1:$HTTP_PORT/internal/sandboxes/$MASKED_SOURCE" -H "$BENCH_SERVICE" \
  -H 'Content-Type: application/json' \
  -d "{\"company_id\":\"$company\",\"agent_id\":\"$(uuid)\",\"run_id\":\"$masked_run\",\"container_id\":\"bench-masked\",\"masks\":\"$sealed\",\"ca\":\"$ca_fingerprint\"}" >/dev/null
log "intercepted: $RULED_SOURCE (company $ruled_company, $HOST with request rules), $MASKED_SOURCE (a masked secret for $HOST)"

# ---------------------------------------------------------------- 4. squid
mkdir -p "$WORK/squid"
echo "$HTTPS_IP $HOST" >"$WORK/squid/hosts"
cat >"$WORK/squid/squid.conf" <<CONF
http_port 127.0.0.1:$SQUID_PORT
visible_hostname trimus-bench
pid_filename $WORK/squid/squid.pid
cache_log $WORK/squid/cache.log
access_log stdio:$WORK/squid/access.log
coredump_dir $WORK/squid
hosts_file $WORK/squid/hosts
cache deny all
cache_mem 8 MB
max_filedescriptors 65536
shutdown_lifetime 1 seconds
acl sandboxes src $SOURCES
acl allowed dstdomain $HOST
acl SSL_ports port 443
acl CONNECT method CONNECT
http_access deny CONNECT !SSL_ports
http_access allow CONNECT sandboxes allowed
http_access deny all
CONF
chown -R proxy:proxy "$WORK/squid" 2>/dev/null || true
$SQUID -k parse -f "$WORK/squid/squid.conf" >"$WORK/squid/parse.log" 2>&1 || { cat "$WORK/squid/parse.log"; die "squid.conf does not parse"; }
$SQUID -N -f "$WORK/squid/squid.conf" >"$WORK/squid/stdout.log" 2>&1 &
pids+=("squid:$!")
for _ in $(seq 1 60); do
  (exec 9<>/dev/tcp/127.0.0.1/$SQUID_PORT) 2>/dev/null && break
  kill -0 "$(pid_of squid)" 2>/dev/null || { cat "$WORK/squid/cache.log" "$WORK/squid/stdout.log"; die "squid exited"; }
  sleep 0.25
done
log "squid $($SQUID -v | head -1 | sed 's/.*Version //') on 127.0.0.1:$SQUID_PORT"

# ---------------------------------------------------------------- 5. both proxies allow $HOST and refuse others, then measure
fetch() { # proxy-port host -> HTTP status of GET https://host/small through it, from the first sandbox
  curl -s -o /dev/null -w '%{http_code}' --max-time 10 --interface "$first" --cacert "$WORK/cert.pem" \
    --proxy "http://127.0.0.1:$1" "https://$2/small" || true
}
for p in trimus:$PROXY_PORT squid:$SQUID_PORT; do
  ok=$(fetch "${p#*:}" "$HOST"); denied=$(fetch "${p#*:}" other.example.test)
  [ "$ok" = 200 ] || die "${p%%:*}: GET https://$HOST/small through it gave $ok"
  [ "$denied" = 000 ] || [ "$denied" = 403 ] || die "${p%%:*}: an unlisted host was not refused ($denied)"
  log "${p%%:*}: $HOST allowed (200), other.example.test refused"
done
direct=$(curl -s -o /dev/null -w '%{http_code}' --interface "$first" --cacert "$WORK/cert.pem" \
  --resolve "$HOST:443:$HTTPS_IP" "https://$HOST/small" || true)
[ "$direct" = 200 ] || die "direct GET gave $direct"

# the intercepted paths: the ruled one refuses a path its rules do not list, both carry an allowed request
ifetch() { # source path -> HTTP status of GET https://$HOST/path through trimus from that sandbox, egress CA trusted
  curl -s -o /dev/null -w '%{http_code}' --max-time 10 --interface "$1" --cacert "$WORK/egress-ca.pem" \
    -H "Authorization: Bearer $surrogate" --proxy "http://127.0.0.1:$PROXY_PORT" "https://$HOST$2" || true
}
[ "$(ifetch $RULED_SOURCE /small)" = 200 ] || die "ruled: GET /small was not 200"
[ "$(ifetch $RULED_SOURCE /other)" = 403 ] || die "ruled: GET /other was not refused by the request rules"
[ "$(ifetch $MASKED_SOURCE /small)" = 200 ] || die "masked: GET /small was not 200"
log "intercepted: ruled GET /small 200, /other 403; masked GET /small 200"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
if [ -z "$ONLY_REQUESTS" ]; then
log "client: concurrency $CONCURRENCY, $ROUNDS x ${SECONDS_PER}s after ${WARMUP}s warm-up, $LATENCY_CONNECTIONS sequential, bulk $BULK_BYTES x $BULK_REPS"
java -Xmx1g -cp "$WORK/classes" ProxyBench client --host "$HOST" --https-ip "$HTTPS_IP" --https-port 443 \
    --cert "$WORK/cert.pem" --sources "$SOURCES" \
    --proxies "squid=127.0.0.1:$SQUID_PORT,trimus=127.0.0.1:$PROXY_PORT" \
    --pids "squid=$(pid_of squid),trimus=$(pid_of trimus)" \
    --concurrency "$CONCURRENCY" --rounds "$ROUNDS" --seconds "$SECONDS_PER" --warmup "$WARMUP" \
    --latency-connections "$LATENCY_CONNECTIONS" --bulk-bytes "$BULK_BYTES" --bulk-reps "$BULK_REPS" \
    | tee "$WORK/client.txt"
else
  : >"$WORK/client.txt"
fi
log "per request: ruled $RULED_SOURCE vs masked $MASKED_SOURCE, $REQUESTS keep-alive + $REQUEST_CONNECTIONS new connections after $REQUEST_WARMUP"
java -Xmx512m -cp "$WORK/classes" RequestBench --host "$HOST" --proxy "127.0.0.1:$PROXY_PORT" \
    --ca "$WORK/egress-ca.pem" --auth "Bearer $surrogate" --paths "ruled=$RULED_SOURCE,masked=$MASKED_SOURCE" \
    --requests "$REQUESTS" --connections "$REQUEST_CONNECTIONS" --warmup-requests "$REQUEST_WARMUP" \
    | tee -a "$WORK/client.txt"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------- 6. report
val() { # kind path key: the value of key on the line "kind path=<path> ..." of the client's output
  awk -v kind="$1" -v path="path=$2" -v key="$3" '$1 == kind && $2 == path {
    for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) v = kv[2] } } END { print v }' "$WORK/client.txt"
}
median_cpu() { # path -> median proxy CPU ms per connection over the rounds
  awk -v path="path=$1" '$1 == "conn_rate" && $0 ~ path" " { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "proxy_cpu_ms_per_conn") print kv[2] } }' \
    "$WORK/client.txt" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "n/a" }'; }
verdict() { awk -v v="$1" -v goal="$2" -v op="$3" 'BEGIN { ok = (op == ">=") ? (v + 0 >= goal) : (op == "<=") ? (v + 0 <= goal) : (v + 0 < goal); print ok ? "met" : "**not met**" }'; }
d_rate=$(val conn_rate_median direct conn_per_s); s_rate=$(val conn_rate_median squid conn_per_s); t_rate=$(val conn_rate_median trimus conn_per_s)
d_bulk=$(val bulk_median direct mib_per_s); s_bulk=$(val bulk_median squid mib_per_s); t_bulk=$(val bulk_median trimus mib_per_s)
rate_ratio=$(awk -v a="$t_rate" -v b="$s_rate" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
bulk_ratio=$(awk -v a="$t_bulk" -v b="$d_bulk" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
t_add99=$(val added_latency trimus established_p99_ms); s_add99=$(val added_latency squid established_p99_ms)
{
echo
echo "## Proxy benchmark $(date -u +%Y-%m-%dT%H:%MZ) - $(nproc) cpus, $(uname -r), $(java -version 2>&1 | head -1), squid $($SQUID -v | head -1 | sed 's/.*Version //')"
echo "load before/after: $load_before / $load_after; CONCURRENCY=$CONCURRENCY ROUNDS=$ROUNDS SECONDS_PER=$SECONDS_PER WARMUP=$WARMUP LATENCY_CONNECTIONS=$LATENCY_CONNECTIONS BULK_BYTES=$BULK_BYTES BULK_REPS=$BULK_REPS; raw: $WORK/client.txt"
echo
if [ -z "$ONLY_REQUESTS" ]; then
echo "| path | conn/s (median) | proxy CPU ms / conn | established p50 / p99 ms | added p50 / p99 ms | request done p50 / p99 ms | bulk MiB/s (median) | proxy CPU s / GiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for p in direct squid trimus; do
  printf '| %s | %s | %s | %s / %s | %s | %s / %s | %s | %s |\n' "$p" "$(val conn_rate_median $p conn_per_s)" \
    "$([ $p = direct ] && echo - || median_cpu $p)" \
    "$(val latency $p established_p50_ms)" "$(val latency $p established_p99_ms)" \
    "$([ $p = direct ] && echo - || echo "$(val added_latency $p established_p50_ms) / $(val added_latency $p established_p99_ms)")" \
    "$(val latency $p done_p50_ms)" "$(val latency $p done_p99_ms)" "$(val bulk_median $p mib_per_s)" \
    "$([ $p = direct ] && echo - || awk -v path="path=$p" '$1 == "bulk" && $0 ~ path" " { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "proxy_cpu_s_per_gib") s = s (s ? ", " : "") kv[2] } } END { print s }' "$WORK/client.txt")"
done
echo
echo "| goal | measured | |"
echo "|---|---:|---|"
echo "| conn/s ≥ 1.0× squid | $(ratio "$t_rate" "$s_rate") (squid/direct $(ratio "$s_rate" "$d_rate"), trimus/direct $(ratio "$t_rate" "$d_rate")) | $(verdict "$rate_ratio" 1.0 ">=") |"
echo "| p99 added connect latency < 1 ms | trimus ${t_add99} ms (squid ${s_add99} ms) | $(verdict "$t_add99" 1.0 "<") |"
echo "| bulk ≥ 0.9× direct | $(ratio "$t_bulk" "$d_bulk") (squid/direct $(ratio "$s_bulk" "$d_bulk")) | $(verdict "$bulk_ratio" 0.9 ">=") |"
echo
fi
rval() { # kind mode path key
  awk -v kind="$1" -v mode="mode=$2" -v path="path=$3" -v key="$4" '$1 == kind && $2 == mode && $3 == path {
    for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) v = kv[2] } } END { print v }' "$WORK/client.txt"
}
echo "Per request through an intercepted host (REQUESTS=$REQUESTS keep-alive on one connection, REQUEST_CONNECTIONS=$REQUEST_CONNECTIONS new connections, after REQUEST_WARMUP=$REQUEST_WARMUP):"
echo
echo "| measure | request rules p50 / p99 ms | masked secret p50 / p99 ms | rules − masked p50 / p99 ms |"
echo "|---|---:|---:|---:|"
for m in keepalive newconn; do
  printf '| %s | %s / %s | %s / %s | %s / %s |\n' "$([ $m = keepalive ] && echo 'request on a kept-alive connection' || echo 'new connection + request')" \
    "$(rval request_latency $m ruled p50_ms)" "$(rval request_latency $m ruled p99_ms)" \
    "$(rval request_latency $m masked p50_ms)" "$(rval request_latency $m masked p99_ms)" \
    "$(rval request_added $m ruled-masked p50_ms)" "$(rval request_added $m ruled-masked p99_ms)"
done
echo
echo "| goal | measured | |"
echo "|---|---:|---|"
echo "| a host with rules costs ≤ 1 ms more per request at p99 than a masked host | $(rval request_added keepalive ruled-masked p99_ms) ms kept alive, $(rval request_added newconn ruled-masked p99_ms) ms new connection | $(verdict "$(rval request_added keepalive ruled-masked p99_ms)" 1.0 "<=") |"
echo
echo "egress-service decision log lines: $(grep -c 'decision=allowed' "$WORK/egress-service.log" || true) allowed, $(grep -c 'decision=refused' "$WORK/egress-service.log" || true) refused; squid access log lines: $(wc -l <"$WORK/squid/access.log")"
} | tee "$WORK/report.md"

if [ -n "$PROFILE" ]; then
  kill -TERM "$(pid_of trimus)"; for _ in $(seq 1 80); do kill -0 "$(pid_of trimus)" 2>/dev/null || break; sleep 0.25; done
  if [ -s "$WORK/egress.jfr" ]; then
    {
    echo; echo "egress-service, JFR execution samples by thread:"
    jfr print --events jdk.ExecutionSample --stack-depth 1 "$WORK/egress.jfr" | grep sampledThread \
      | sed 's/.*= "//; s/".*//' | sort | uniq -c | sort -rn | head -5
    echo; echo "by what the sample was doing (first matching frame from the top):"
    jfr print --events jdk.ExecutionSample --stack-depth 64 "$WORK/egress.jfr" | awk '
      /stackTrace = \[/ { in_stack = 1; cat = ""; top = ""; next }
      in_stack && /^[ \t]*\]/ { in_stack = 0; if (cat == "") cat = "other (top: " top ")"; c[cat]++; n++; next }
      in_stack { f = $0; sub(/^[ \t]+/, "", f); sub(/line:.*/, "", f); if (top == "") top = f
        if (cat != "") next
        if (f ~ /org\.xbill|io\.trimus\.egress\.dns\./) cat = "resolving the host upstream (dnsjava, UpstreamResolver)"
        else if (f ~ /DecisionLog|org\.jboss\.logmanager|org\.jboss\.logging/) cat = "the decision log line"
        else if (f ~ /NetClientImpl|Bootstrap\.connect/) cat = "dialling the destination (Vert.x NetClient)"
        else if (f ~ /io\.trimus\.egress\.proxy\.relay\.|safeBuffer|NetSocketImpl\.write/) cat = "relaying bytes"
        else if (f ~ /io\.trimus\.egress\.proxy\./) cat = "policy, parsing, bookkeeping (io.trimus.egress.proxy)" }
      END { for (k in c) printf "%6.1f%%  %s\n", 100 * c[k] / n, k; printf "%6d   samples\n", n }' | sort -rn | head -12
    echo; echo "egress-service, collector pauses while recorded (jdk.GarbageCollection, ms):"
    jfr print --events jdk.GarbageCollection "$WORK/egress.jfr" | awk '
      /name = / { name = $3; gsub(/"/, "", name) }
      /sumOfPauses = / { v = $3; if ($4 == "s") v *= 1000; if ($4 == "us") v /= 1000; n[name]++; sum[name] += v; if (v > max[name]) max[name] = v }
      END { for (k in n) printf "  %-16s %5d collections, pauses total %8.1f ms, longest %6.2f ms\n", k, n[k], sum[k], max[k] }'
    } | tee -a "$WORK/report.md"
  fi
fi
echo "# report: $WORK/report.md"
