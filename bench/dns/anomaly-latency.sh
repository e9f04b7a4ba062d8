# bench/dns/anomaly-latency.sh - sourced by run.sh: how fast a denied lookup becomes an anomaly row, under load.
#
# anomaly_phase NAME HTTP_PORT DNS_PORT COMPANY QPS: for $ANOMALY_DURATION s, dnsperf denies QPS distinct names
# per second from 127.0.0.1 (the benchmark's sandbox; QPS 0: none, the resolver is idle but for the probe), while a probe sandbox (127.0.0.2, same company) looks up a
# fresh denied name every $ANOMALY_PROBE_GAP s and times, per name, from just before its lookup until
#   - the row is listed by GET /api/companies/{id}/egress/anomalies?qname=<name> (polled back to back), and
#   - egress-service's live stream (GET …/anomalies/stream, server-sent events) has sent it.
# Then, over the rows first seen during the phase, p50/p99 of received_at − first_seen, split into first denials
# (published at once: count 1 and a name of their own; a window with exactly one repeat would look the same, but the
# benchmark's denied names never repeat) and folded events (repeats and a sandbox's overflow beyond its per-window
# name budget, published when the window ends: their delay is the window, by design).
# anomaly_rows_latency NAME COMPANY: the same split over every row of the run. Needs BENCH_OPERATOR,
# BENCH_SERVICE, POSTGRES_PORT, WORK, db_of, uuid, log and die (run.sh).

# ANOMALY_QPS: one phase per value, e.g. "0 5000" (idle, then under a flood); ANOMALY_DURATION=0 skips the phases
ANOMALY_QPS=${ANOMALY_QPS:-5000}
ANOMALY_DURATION=${ANOMALY_DURATION:-20}
ANOMALY_PROBE_GAP=${ANOMALY_PROBE_GAP:-0.25}
PROBE_SOURCE=127.0.0.2

# Times are bash's clock in ns (${EPOCHREALTIME/./}000): no process per reading, as the stream's lines come in bursts
# (a window's first denials at once) and a date(1) per line would delay the reading itself by seconds.

# percentiles of the numbers on stdin (one a line): "n=… p50=… p99=… max=…"
pctl() {
  sort -n | awk '{v[NR]=$1} END {
    if (!NR) { print "n=0"; exit }
    i50=int(0.50*NR+0.999999); i99=int(0.99*NR+0.999999)
    printf "n=%d p50=%s p99=%s max=%s", NR, v[i50], v[i99], v[NR] }'
}

# p50/p99/max of received_at − first_seen in ms, first denials and folded events, over the company's rows first
# seen at or after $3 (an ISO time, or '-infinity')
rows_latency() {  # name company since
  PGPASSWORD=postgres psql -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d "$(db_of "$1")" -Atq -F ' ' -c "
    select case when count = 1 and qname not like '*%' then 'first-denials' else 'folded' end, count(*),
           round(percentile_cont(0.5) within group (order by ms)::numeric, 1),
           round(percentile_cont(0.99) within group (order by ms)::numeric, 1), round(max(ms)::numeric, 1)
    from (select count, qname, extract(epoch from received_at - first_seen) * 1000 as ms
          from egress.egress_anomaly_events where company_id = '$2' and first_seen >= '$3') r
    group by 1 order by 1" 2>/dev/null | awk '{printf "%s: %s rows, received_at − first_seen p50 %s ms, p99 %s ms, max %s ms\n", $1, $2, $3, $4, $5}' || true
}

anomaly_rows_latency() {  # name company
  rows_latency "$1" "$2" '-infinity' | sed "s/^/$1 whole run, /"
}

anomaly_phase() {  # name http_port dns_port company qps
  local name=$1 http=$2 dns=$3 company=$4 qps=$5 dir="$WORK/anomaly-$1-$5" since lines i n t0 t1 tc dp sse
  ((ANOMALY_DURATION > 0)) || return 0
  mkdir -p "$dir"
  if [[ ! -e $WORK/probe-registered-$name ]]; then   # once per build: a second phase reuses it
    curl -fsS -X PUT "http://127.0.0.1:$http/internal/sandboxes/$PROBE_SOURCE" -H "$BENCH_SERVICE" \
      -H 'Content-Type: application/json' \
      -d "{\"company_id\":\"$company\",\"agent_id\":\"$(uuid)\",\"run_id\":\"$(uuid)\",\"container_id\":\"bench-dns-probe-$name\"}" \
      >/dev/null || die "$name: could not register the probe sandbox $PROBE_SOURCE"
    : >"$WORK/probe-registered-$name"
  fi
  lines=$((qps * ANOMALY_DURATION * 11 / 10 + 1000))
  awk -v n="$lines" -v s="$RANDOM$RANDOM" 'BEGIN{for(i=0;i<n;i++) printf "f%s-%d.denied.test A\n", s, i}' >"$dir/names.txt"
  # the live stream, each line stamped with its arrival (ns); curl ends by itself after the phase
  ( curl -sN --max-time $((ANOMALY_DURATION + 8)) -H "$BENCH_OPERATOR" \
      "http://127.0.0.1:$http/api/companies/$company/egress/anomalies/stream" \
      | while IFS= read -r line; do echo "${EPOCHREALTIME/./}000 $line"; done >"$dir/sse.txt" ) &
  sse=$!
  sleep 1
  since=$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)
  log "$name: anomaly latency: $qps distinct denied names/s for ${ANOMALY_DURATION}s, probe lookups from $PROBE_SOURCE"
  if ((qps > 0)); then
    dnsperf -s 127.0.0.1 -p "$dns" -d "$dir/names.txt" -Q "$qps" -l "$ANOMALY_DURATION" -c 4 -T 2 \
      >"$dir/dnsperf.txt" 2>&1 &
  else
    sleep "$ANOMALY_DURATION" &   # idle: the probe's lookups only
  fi
  dp=$!
  i=0
  : >"$dir/probe.txt"; : >"$dir/calls.txt"
  while kill -0 "$dp" 2>/dev/null; do
    i=$((i + 1)); n="p$i-$RANDOM$RANDOM.probe.denied.test"
    t0=${EPOCHREALTIME/./}000; t1=
    dig +short +time=1 +tries=1 -b "$PROBE_SOURCE" -p "$dns" @127.0.0.1 "$n" A >/dev/null 2>&1 || true
    while (( ${EPOCHREALTIME/./}000 - t0 < 30000000000 )); do
      tc=${EPOCHREALTIME/./}000
      if curl -fsS -H "$BENCH_OPERATOR" "http://127.0.0.1:$http/api/companies/$company/egress/anomalies?qname=$n" \
          2>/dev/null | grep -q '"id"'; then t1=${EPOCHREALTIME/./}000; echo "$(( (t1 - tc) / 1000 ))" >>"$dir/calls.txt"; break; fi
      echo "$(( (${EPOCHREALTIME/./}000 - tc) / 1000 ))" >>"$dir/calls.txt"
    done
    [[ -n $t1 ]] && echo "$n $t0 $t1" >>"$dir/probe.txt" || echo "$n $t0" >>"$dir/probe-missed.txt"
    sleep "$ANOMALY_PROBE_GAP"
  done
  wait "$dp" || true
  wait "$sse" 2>/dev/null || true
  local sent
  sent=$(awk '/Queries sent:/{print $3}' "$dir/dnsperf.txt" 2>/dev/null || true)
  echo "$name: anomaly latency at $qps distinct denied names/s for ${ANOMALY_DURATION}s (dnsperf sent ${sent:-?}), $(wc -l <"$dir/probe.txt") probe lookups:"
  echo "  probe lookup → row listed by the API (ms): $(awk '{printf "%.1f\n", ($3-$2)/1e6}' "$dir/probe.txt" | pctl)$(
      [[ -s $dir/probe-missed.txt ]] && echo ", NOT LISTED within 30 s: $(wc -l <"$dir/probe-missed.txt")")"
  echo "  one API call of the probe's polling, sign-in check included (µs): $(pctl <"$dir/calls.txt")"
  echo "  probe lookup → event on the live stream (ms): $(awk 'NR==FNR {t0[$1]=$2; next}
      /^[0-9]+ data:/ { if (match($0, /"qname":"[^"]*"/)) { q=substr($0, RSTART+9, RLENGTH-10); if (q in t0) printf "%.1f\n", ($1-t0[q])/1e6 } }' \
      "$dir/probe.txt" "$dir/sse.txt" | pctl)"
  sleep 12  # the phase's windows close (TRIMUS_EGRESS_ANOMALIES_WINDOW, 10 s): its folded events are persisted too
  rows_latency "$name" "$company" "$since" | sed 's/^/  rows first seen in the phase, /'
}
