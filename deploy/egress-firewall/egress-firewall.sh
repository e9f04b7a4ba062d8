#!/bin/sh
# Host firewall of the Trimus egress network: sandboxes may reach the Trimus resolver's port 53, nothing else on
# the host, and (the network has inter-container traffic off) no other container.
#
# Two placements of the resolver:
# - in a container on the egress network (docker-compose.yml): inter-container traffic being off cuts sandboxes off
#   from it too, so rules in Docker's DOCKER-USER chain let exactly sandbox -> resolver udp/tcp 53 (and the answers)
#   through;
# - on the host, at the network's gateway (./trimus up): INPUT rules accept udp/tcp 53 to the gateway.
# Either way "internal" does not keep a sandbox off the host itself, so everything else a sandbox sends to the host
# is dropped. Needs the host's network namespace and NET_ADMIN. "run" applies the rules, keeps them while it runs
# and removes them on SIGTERM; "check" exits 0 only when all rules are in place (the health check); "remove".
#
# Environment: TRIMUS_EGRESS_NETWORK_BRIDGE_NAME (trimus-egress0), TRIMUS_EGRESS_NETWORK_SUBNET (172.30.0.0/24),
# TRIMUS_EGRESS_NETWORK_GATEWAY (172.30.0.1), TRIMUS_EGRESS_RESOLVER_IP (172.30.0.2; the gateway = on the host).
set -eu
BRIDGE=${TRIMUS_EGRESS_NETWORK_BRIDGE_NAME:-trimus-egress0}
SUBNET=${TRIMUS_EGRESS_NETWORK_SUBNET:-172.30.0.0/24}
GATEWAY=${TRIMUS_EGRESS_NETWORK_GATEWAY:-172.30.0.1}
RESOLVER=${TRIMUS_EGRESS_RESOLVER_IP:-172.30.0.2}
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

# One rule per line: chain, then the match and target. Order matters only within a chain; each is inserted at the top
# in reverse, so the file order is the evaluation order.
rules() {
  if [ "$RESOLVER" = "$GATEWAY" ]; then
    cat <<RULES
INPUT -i $BRIDGE -s $SUBNET -d $RESOLVER -p udp --dport 53 -j ACCEPT
INPUT -i $BRIDGE -s $SUBNET -d $RESOLVER -p tcp --dport 53 -j ACCEPT
RULES
  else
    cat <<RULES
DOCKER-USER -i $BRIDGE -o $BRIDGE -s $SUBNET -d $RESOLVER -p udp --dport 53 -j ACCEPT
DOCKER-USER -i $BRIDGE -o $BRIDGE -s $SUBNET -d $RESOLVER -p tcp --dport 53 -j ACCEPT
DOCKER-USER -i $BRIDGE -o $BRIDGE -s $RESOLVER -d $SUBNET -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
RULES
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

pick_iptables
case "${1:-run}" in
  check) check ;;
  remove) remove; log "rules for $BRIDGE removed" ;;
  run)
    apply
    check || { log "the rules could not be applied"; exit 1; }
    log "sandboxes on $BRIDGE ($SUBNET) may reach $RESOLVER:53 (udp, tcp) and nothing else on the host ($IPT)"
    trap 'remove; log "rules for $BRIDGE removed"; exit 0' TERM INT
    # Re-applied every 30 s: a Docker restart rebuilds its chains.
    while :; do sleep 30 & wait $!; apply || log "re-applying the rules failed; the health check will say which is missing"; done
    ;;
  *) log "usage: trimus-egress-firewall run|check|remove"; exit 2 ;;
esac
