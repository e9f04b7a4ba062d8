# The egress canary's probe (busybox sh), run as the probe sandbox's whole command by io.trimus.adapter.canary.
# Tries each check once and prints one line per check: "trimus-canary NAME KIND RESULT [DETAIL]"; Java decides what
# each line means. Parameters arrive as CANARY_* variables, checked by ProbeTargets before they get here. Every try
# is bounded (2 s to connect; a direct try 4 s in all, a proxied one CANARY_PROXY_WAIT), so the whole probe stays
# below its container's timeout even when the proxy makes each request wait.
T=2
W=${CANARY_PROXY_WAIT:-15}
clean() { printf '%s' "$1" | tr -c 'A-Za-z0-9._:/()=,+-' ' ' | tr -s ' ' | cut -c1-160; }
say() { printf 'trimus-canary %s %s %s %s\n' "$1" "$2" "$3" "$(clean "$4")"; }

dns() {
  out=$(timeout 5 nslookup "$2" 2>&1); rc=$?
  case "$out" in
    *NXDOMAIN*) say "$1" dns nxdomain ;;
    *REFUSED*) say "$1" dns refused ;;
    *SERVFAIL*) say "$1" dns servfail ;;
    *"no servers could be reached"*|*"timed out"*|*"connect to remote host"*) say "$1" dns noserver ;;
    *)
      addr=$(printf '%s\n' "$out" | awk '/^Name:/ { n = 1 } n && /^Address/ { print $NF; exit }')
      if [ -n "$addr" ]; then say "$1" dns answer "$addr"
      elif [ "$rc" -ge 124 ]; then say "$1" dns noserver
      else say "$1" dns noanswer "$out"; fi ;;
  esac
}

tcp() {
  err=$(timeout 4 nc -w "$T" "$2" "$3" </dev/null 2>&1 >/dev/null)
  case "$err" in
    *"timed out"*) say "$1" tcp timeout ;;
    *refused*) say "$1" tcp refused ;;
    *nreachable*|*"No route"*) say "$1" tcp unreachable ;;
    "") say "$1" tcp connected ;;
    *) say "$1" tcp error "$err" ;;
  esac
}

# A request through the sandbox's proxy: the first line of its answer, waited for up to W seconds (longer than the
# proxy's own dial timeout, so an admitted target's 502 arrives), the connection kept open meanwhile.
proxy() {
  f=/tmp/$1
  : >"$f"
  { printf '%s HTTP/1.1\r\nHost: %s\r\n\r\n' "$2" "$3"; sleep "$W"; } \
    | timeout "$W" nc -w "$T" "$CANARY_PROXY_HOST" "$CANARY_PROXY_PORT" >"$f" 2>&1 &
  pid=$!
  n=0
  while [ "$n" -lt "$((W * 10))" ] && kill -0 "$pid" 2>/dev/null && [ "$(wc -l <"$f")" -lt 1 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  alive=no
  if kill -0 "$pid" 2>/dev/null; then alive=yes; kill "$pid" 2>/dev/null; fi
  resp=$(head -n 1 "$f" | tr -d '\r')
  case "$resp" in
    HTTP/*) say "$1" http "$(printf '%s' "$resp" | cut -d ' ' -f 2)" "$resp" ;;
    *"timed out"*) say "$1" proxy timeout ;;
    *refused*) say "$1" proxy refused ;;
    *nreachable*|*"No route"*) say "$1" proxy unreachable ;;
    "") if [ "$alive" = yes ]; then say "$1" http silent "$W"; else say "$1" http none; fi ;;
    *) say "$1" http garbled "$resp" ;;
  esac
}

# The proxied checks wait on the proxy in parallel while the direct ones run; the lines come out in check order.
proxy unlisted_name_via_proxy "CONNECT $CANARY_UNLISTED_NAME:443" "$CANARY_UNLISTED_NAME:443" >/tmp/r.2 &
proxy ip_literal_via_proxy "CONNECT $CANARY_IP_LITERAL" "$CANARY_IP_LITERAL" >/tmp/r.4 &
proxy metadata_via_proxy "GET http://$CANARY_METADATA/latest/meta-data/" "$CANARY_METADATA" >/tmp/r.6 &
proxy unlisted_port "CONNECT $CANARY_PORT_TARGET" "$CANARY_PORT_TARGET" >/tmp/r.7 &
if [ -n "$CANARY_ALLOWED_HOST" ]; then
  proxy allowed_host "CONNECT $CANARY_ALLOWED_HOST" "$CANARY_ALLOWED_HOST" >/tmp/r.10 &
fi
dns unlisted_name "$CANARY_UNLISTED_NAME" >/tmp/r.1
tcp ip_literal "$CANARY_IP_HOST" "$CANARY_IP_PORT" >/tmp/r.3
tcp metadata "$CANARY_METADATA" 80 >/tmp/r.5
tcp bridge_route.gateway "$CANARY_GATEWAY" 22 >/tmp/r.8
tcp bridge_route.docker0 "$CANARY_DOCKER0" 22 >/tmp/r.9
wait
for i in 1 2 3 4 5 6 7 8 9 10; do
  if [ -f /tmp/r.$i ]; then cat /tmp/r.$i; fi
done
echo trimus-canary-end
