# The egress canary's probe (busybox sh), run as the probe sandbox's whole command by io.trimus.adapter.canary.
# Tries each check once and prints one line per check: "trimus-canary NAME KIND RESULT [DETAIL]"; Java decides what
# each line means. Parameters arrive as CANARY_* variables, checked by ProbeTargets before they get here. Every try
# is bounded (2 s to connect, 4 s in all), so the whole probe stays far below its container's timeout.
T=2
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

proxy() {
  resp=$(printf '%s HTTP/1.1\r\nHost: %s\r\n\r\n' "$2" "$3" \
    | timeout 4 nc -w "$T" "$CANARY_PROXY_HOST" "$CANARY_PROXY_PORT" 2>&1 | head -n 1 | tr -d '\r')
  case "$resp" in
    HTTP/*) say "$1" http "$(printf '%s' "$resp" | cut -d ' ' -f 2)" "$resp" ;;
    *"timed out"*) say "$1" proxy timeout ;;
    *refused*) say "$1" proxy refused ;;
    *nreachable*|*"No route"*) say "$1" proxy unreachable ;;
    "") say "$1" http none ;;
    *) say "$1" http garbled "$resp" ;;
  esac
}

dns unlisted_name "$CANARY_UNLISTED_NAME"
proxy unlisted_name_via_proxy "CONNECT $CANARY_UNLISTED_NAME:443" "$CANARY_UNLISTED_NAME:443"
tcp ip_literal "$CANARY_IP_HOST" "$CANARY_IP_PORT"
proxy ip_literal_via_proxy "CONNECT $CANARY_IP_LITERAL" "$CANARY_IP_LITERAL"
tcp metadata "$CANARY_METADATA" 80
proxy metadata_via_proxy "GET http://$CANARY_METADATA/latest/meta-data/" "$CANARY_METADATA"
proxy unlisted_port "CONNECT $CANARY_PORT_TARGET" "$CANARY_PORT_TARGET"
tcp bridge_route.gateway "$CANARY_GATEWAY" 22
tcp bridge_route.docker0 "$CANARY_DOCKER0" 22
if [ -n "$CANARY_ALLOWED_HOST" ]; then
  proxy allowed_host "CONNECT $CANARY_ALLOWED_HOST" "$CANARY_ALLOWED_HOST"
fi
echo trimus-canary-end
