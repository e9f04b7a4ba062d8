#!/bin/sh
# Host firewall of the Trimus egress network: sandboxes may reach egress-service's resolver (udp/tcp 53) and its
# egress proxy (tcp 80 and 443 transparent, 3128 explicit), nothing else on the host, and (the network has
# inter-container traffic off) no other container. Forwarding out of the network stays impossible: the network is
# internal, and these rules open nothing but input to egress-service's address.
#
# Two placements of egress-service:
# - in a container on the egress network (docker-compose.yml): inter-container traffic being off cuts sandboxes off
#   from it too, so rules in Docker's DOCKER-USER chain let exactly sandbox -> egress-service's ports (and the
#   answers) through;
# - on the host, at the network's gateway (./trimus up): INPUT rules accept those ports to the gateway.
# Either way "internal" does not keep a sandbox off the host itself, so everything else a sandbox sends to the host
# is dropped. Needs the host's network namespace and NET_ADMIN. "run" applies the rules, keeps them while it runs
# and removes them on SIGTERM; "check" exits 0 only when all rules are in place (the health check); "remove";
# "ports" prints the opened ports, one "protocol port" a line.
#
# Environment: TRIMUS_EGRESS_NETWORK_BRIDGE_NAME (trimus-egress0), TRIMUS_EGRESS_NETWORK_SUBNET (172.30.0.0/24),
# TRIMUS_EGRESS_NETWORK_GATEWAY (172.30.0.1), TRIMUS_EGRESS_RESOLVER_IP (172.30.0.2; the gateway = on the host), and
# the proxy's ports as egress-service reads them: TRIMUS_EGRESS_PROXY_PORT (3128),
# TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT (443), TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTP_PORT (80); -1 (or 0)
# leaves that one closed.
set -eu
BRIDGE=${TRIMUS_EGRESS_NETWORK_BRIDGE_NAME:-trimus-egress0}
SUBNET=${TRIMUS_EGRESS_NETWORK_SUBNET:-172.30.0.0/24}
GATEWAY=${TRIMUS_EGRESS_NETWORK_GATEWAY:-172.30.0.1}
RESOLVER=${TRIMUS_EGRESS_RESOLVER_IP:-172.30.0.2}
PROXY_PORT=${TRIMUS_EGRESS_PROXY_PORT:-3128}
HTTPS_PORT=${TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT:-443}
HTTP_PORT=${TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTP_PORT:-80}
TAG="trimus-egress:$BRIDGE"

log() { printf 'trimus-egress-firewall: %s\n' "$*" >&2; }

# The iptables flavour (nft or legacy) that holds Docker's own rules; rules in the other one would not apply.
pick_iptables() {
  for candidate in iptables-nft iptables-legacy; do
    if "$candidate" -w -S DOCKER-USER >/dev/null 2>&1; then IPT=$candidate; return 0; fi
  done
  log "no DOCKER-USER chain in iptables-nft or iptables-legacy: is this the Docker host's network namespace (network_mode: host) and is Docker's iptables integration on?"
  return 1
}

# The ports sandboxes may reach at egress-service's address: "protocol port" per line, DNS first.
ports() {
  echo "udp 53"
  echo "tcp 53"
  for port in "$HTTP_PORT" "$HTTPS_PORT" "$PROXY_PORT"; do
    case "$port" in
      -1|0) ;;
      *[!0-9]*|'') log "not a port: '$port' (TRIMUS_EGRESS_PROXY_*PORT)"; exit 2 ;;
      *) [ "$port" -le 65535 ] || { log "not a port: $port"; exit 2; }; echo "tcp $port" ;;
    esac
  done
}

# One rule per line: chain, then the match and target. Order matters only within a chain; each is inserted at the top
# in reverse, so the file order is the evaluation order.
rules() {
  ports | while read -r proto port; do
    if [ "$RESOLVER" = "$GATEWAY" ]; then
      echo "INPUT -i $BRIDGE -s $SUBNET -d $RESOLVER -p $proto --dport $port -j ACCEPT"
    else
      echo "DOCKER-USER -i $BRIDGE -o $BRIDGE -s $SUBNET -d $RESOLVER -p $proto --dport $port -j ACCEPT"
    fi
  done
  if [ "$RESOLVER" != "$GATEWAY" ]; then
    echo "DOCKER-USER -i $BRIDGE -o $BRIDGE -s $RESOLVER -d $SUBNET -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT"
  fi
  echo "INPUT -i $BRIDGE -j DROP"
}

with_comment() { printf '%s -m comment --comment %s' "$1" "$TAG"; }

apply() {
  rules | awk '{ line[NR] = $0 } END { for (i = NR; i > 0; i--) print line[i] }' | while read -r chain spec; do
    # shellcheck disable=SC2046
    if ! $IPT -w -C "$chain" $(with_comment "$spec") 2>/dev/null; then
      $IPT -w -I "$chain" 1 $(with_comment "$spec")
    fi
  done
}

remove() {
  rules | while read -r chain spec; do
    while $IPT -w -D "$chain" $(with_comment "$spec") 2>/dev/null; do :; done
  done
}

check() {
  rules | while read -r chain spec; do
    $IPT -w -C "$chain" $(with_comment "$spec") 2>/dev/null || { log "missing: $chain $spec"; exit 1; }
  done
}

case "${1:-run}" in
  ports) ports; exit 0 ;;
esac
ports >/dev/null
pick_iptables
case "${1:-run}" in
  check) check ;;
  remove) remove; log "rules for $BRIDGE removed" ;;
  run)
    apply
    check || { log "the rules could not be applied"; exit 1; }
    log "sandboxes on $BRIDGE ($SUBNET) may reach $RESOLVER on $(ports | awk '{printf "%s%s/%s", (NR > 1 ? ", " : ""), $2, $1}') and nothing else on the host ($IPT)"
    trap 'remove; log "rules for $BRIDGE removed"; exit 0' TERM INT
    # Re-applied every 30 s: a Docker restart rebuilds its chains.
    while :; do sleep 30 & wait $!; apply || log "re-applying the rules failed; the health check will say which is missing"; done
    ;;
  *) log "usage: trimus-egress-firewall run|check|remove|ports"; exit 2 ;;
esac
