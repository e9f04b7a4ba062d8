#!/usr/bin/env bash
# ./trimus compose-smoke: prove docker-compose.yml: local images, the stack up, a run to SUCCEEDED, a denied
# lookup and a refused proxy CONNECT seen as anomalies, the A2A conformance kit against a published agent, everything
# torn down. .ci/run runs it after the tests (TRIMUS_SKIP_BUILD=1).
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/scripts/lib.sh"
. "$ROOT/scripts/demo-image.sh"
. "$ROOT/scripts/images.sh"
. "$ROOT/scripts/a2a-tck.sh"

# docker-compose: Debian's 1.29 (installed here when missing), else the Compose plugin of a newer Docker.
COMPOSE=()
ensure_compose() {
  if ! command -v docker-compose >/dev/null 2>&1 && is_debian_root; then apt_install docker-compose; fi
  if command -v docker-compose >/dev/null 2>&1; then COMPOSE=(docker-compose)
  elif "$DOCKER" compose version >/dev/null 2>&1; then COMPOSE=("$DOCKER" compose)
  else die "docker-compose is needed (Debian: apt-get install docker-compose)"; fi
}

json_field() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get(sys.argv[1]) if isinstance(d, dict) else "")' "$1"; }

# The proof of docker-compose.yml: the stack from locally built images (docker-compose.local.yml) on its own egress
# network, ports and project name, so it never touches a ./trimus up on the same host. A docker-adapter run on the
# egress network must end SUCCEEDED, its denied lookup and its CONNECT to the same name through egress-service's proxy
# (3128, let through by egress-firewall, answered 403) must come back as anomalies through the API, the lookup on the
# dashboard, and from inside the sandbox neither the host nor egress-service's HTTP port may be reachable. Then a
# second docker agent is published over A2A and the A2A conformance kit (scripts/a2a-tck.sh) runs against it with an
# A2A-only token: only its by-design failures are allowed.
# Everything (containers, volumes, network, firewall rules) is removed at the end, also on failure.
compose_smoke() {
  ensure_docker
  ensure_compose
  command -v python3 >/dev/null 2>&1 || die "python3 is needed to read the API's JSON"
  build
  demo_image
  images --local --stack-only
  local project=trimus-smoke net=trimus-egress-smoke bridge=trimus-smoke0 prefix=10.213.241
  local env_file=.trimus/compose-smoke.env host_port=18099
  local run_port=18081 egress_port=18083 ui_port=18080
  local operator_token; operator_token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
  (umask 077 && cat >"$env_file" <<ENV
TRIMUS_BOOTSTRAP_OPERATOR_TOKEN=$operator_token
TRIMUS_DB_PASSWORD=$(head -c 18 /dev/urandom | base64)
TRIMUS_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)
TRIMUS_DOCKER_GID=$(stat -c %g /var/run/docker.sock)
TRIMUS_VERSION=$TRIMUS_VERSION
TRIMUS_EGRESS_NETWORK_NAME=$net
TRIMUS_DOCKER_ALLOWED_NETWORKS=none,$net
TRIMUS_EGRESS_NETWORK_SUBNET=$prefix.0/24
TRIMUS_EGRESS_NETWORK_GATEWAY=$prefix.1
TRIMUS_EGRESS_NETWORK_BRIDGE_NAME=$bridge
TRIMUS_EGRESS_RESOLVER_IP=$prefix.2
TRIMUS_RUN_SERVICE_PORT=$run_port
TRIMUS_ADAPTER_PORT=18082
TRIMUS_EGRESS_SERVICE_PORT=$egress_port
TRIMUS_ADMIN_UI_PORT=$ui_port
TRIMUS_A2A_PUBLIC_URL=http://127.0.0.1:$run_port
ENV
  )
  local dc=("${COMPOSE[@]}" -p "$project" --env-file "$env_file" -f docker-compose.yml -f docker-compose.local.yml)
  local listener_pid=""
  smoke_down() {
    trap - EXIT INT TERM
    [ -n "$listener_pid" ] && kill "$listener_pid" 2>/dev/null || true
    log "tearing the stack down"
    "${dc[@]}" down -v --remove-orphans >.trimus/compose-smoke-down.log 2>&1 || tail -20 .trimus/compose-smoke-down.log
    # sandboxes a failed step left behind: the smoke's runs are all on its own egress network
    "$DOCKER" ps -aq --filter network="$net" | xargs -r "$DOCKER" rm -f >/dev/null 2>&1 || true
    if command -v iptables >/dev/null 2>&1 && iptables -S 2>/dev/null | grep -q "trimus-egress:$bridge"; then
      log "warning: firewall rules for $bridge are still in place"
    fi
  }
  smoke_fail() {
    log "compose smoke FAILED: $*"
    "${dc[@]}" ps >&2 || true
    "${dc[@]}" logs --no-color --tail 40 >&2 || true
    smoke_down
    log "compose smoke FAILED: $*"
    exit 1
  }
  trap smoke_down EXIT
  trap 'smoke_down; exit 130' INT TERM
  "${dc[@]}" config -q || smoke_fail "docker-compose.yml does not validate"
  local started=$SECONDS
  log "docker-compose up (project $project, egress network $net $prefix.0/24)"
  "${dc[@]}" up -d --no-build >.trimus/compose-smoke-up.log 2>&1 || { cat .trimus/compose-smoke-up.log >&2; smoke_fail "docker-compose up failed"; }
  local service id state waited
  for service in kafka postgres egress-firewall run-service egress-service adapter-lambda-service admin-ui; do
    id=$("${dc[@]}" ps -q "$service")
    [ -n "$id" ] || smoke_fail "no container for $service"
    for waited in $(seq 1 180); do
      state=$("$DOCKER" inspect -f '{{.State.Health.Status}}' "$id" 2>/dev/null || echo gone)
      [ "$state" = healthy ] && break
      [ "$state" = unhealthy ] || [ "$state" = gone ] && smoke_fail "$service is $state"
      sleep 1
    done
    [ "$state" = healthy ] || smoke_fail "$service not healthy after 180 s"
  done
  log "all seven services healthy $((SECONDS - started)) s after up"

  # A listener on the host's address on the egress network: the sandbox must not reach it.
  python3 -m http.server --bind "$prefix.1" "$host_port" >/dev/null 2>&1 &
  listener_pid=$!
  local api=http://127.0.0.1:$run_port/api company agent run body status="" admin_token session
  local operator=(-H "Authorization: Bearer $operator_token")
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$api/companies")" = 401 ] || smoke_fail "run-service answered without a credential"
  company=$(curl -fsS "${operator[@]}" -XPOST "$api/companies" -H 'Content-Type: application/json' \
    -d '{"name":"compose smoke"}' | json_field id) || smoke_fail "the operator could not create a company"
  admin_token=$(curl -fsS "${operator[@]}" -XPOST "$api/companies/$company/tokens" -H 'Content-Type: application/json' \
    -d '{"name":"smoke","role":"admin"}' | json_field token) || smoke_fail "creating a company token failed"
  local admin=(-H "Authorization: Bearer $admin_token")
  # a built-in account: added as a member, first password through its setup link, then signed in
  local setup_url password; password=$(head -c 18 /dev/urandom | base64)
  setup_url=$(curl -fsS "${admin[@]}" -XPUT "$api/companies/$company/members/smoke@example.com" \
    -H 'Content-Type: application/json' -d '{"role":"member"}' | json_field setup_url) || smoke_fail "adding a member failed"
  curl -fsS -o /dev/null -XPOST "$api/setup" -H 'Content-Type: application/json' \
    -d "{\"token\":\"${setup_url#*#}\",\"password\":\"$password\"}" || smoke_fail "setting the member's password failed"
  session=$(curl -fsS -XPOST "$api/sessions" -H 'Content-Type: application/json' \
    -d "{\"email\":\"smoke@example.com\",\"password\":\"$password\"}" | json_field token) || smoke_fail "signing in failed"
  local member=(-H "Authorization: Bearer $session")
  agent=$(curl -fsS "${admin[@]}" -XPOST "$api/companies/$company/agents" -H 'Content-Type: application/json' -d @- <<JSON | json_field id
{"name": "smoke", "adapter_type": "docker", "adapter_config": {"image": "trimus/busybox:local", "network": "$net",
 "timeout_sec": 60, "command": ["sh", "-c",
  "nslookup denied.compose-smoke.example. || true; nc -w 3 $prefix.1 $host_port </dev/null && echo HOST-REACHABLE || echo host-unreachable; nc -w 3 $prefix.2 8083 </dev/null && echo API-REACHABLE || echo api-unreachable; printf 'CONNECT denied.compose-smoke.example:443 HTTP/1.1\\r\\nHost: denied.compose-smoke.example:443\\r\\n\\r\\n' | nc -w 3 $prefix.2 3128 | head -1 | sed 's/^/proxy-answer: /'; echo smoke-done"]}}
JSON
  ) || smoke_fail "creating a docker agent failed"
  [ -n "$agent" ] || smoke_fail "creating a docker agent returned no id"
  [ "$(curl -s -o /dev/null -w '%{http_code}' "${member[@]}" -XPOST "$api/companies/$company/agents" \
    -H 'Content-Type: application/json' -d '{}')" = 403 ] || smoke_fail "a member could create an agent"
  run=$(curl -fsS "${member[@]}" -XPOST "$api/companies/$company/agents/$agent/runs" -H 'Content-Type: application/json' \
    -d '{"input": "compose smoke"}' | json_field id) || smoke_fail "the signed-in member could not start a run"
  log "run $run of company $company queued"
  for waited in $(seq 1 120); do
    body=$(curl -fsS "${member[@]}" "$api/companies/$company/runs/$run") || smoke_fail "reading run $run failed"
    status=$(printf '%s' "$body" | json_field status)
    case "$status" in SUCCEEDED|FAILED|TIMED_OUT|CANCELLED|REJECTED) break ;; esac
    sleep 1
  done
  [ "$status" = SUCCEEDED ] || smoke_fail "run $run ended $status: $body"
  local output; output=$(printf '%s' "$body" | json_field output)
  case "$output" in *smoke-done*) ;; *) smoke_fail "the run's output is not the sandbox's: $output" ;; esac
  case "$output" in *NXDOMAIN*) ;; *) smoke_fail "the denied name was not NXDOMAIN: $output" ;; esac
  case "$output" in *host-unreachable*) ;; *) smoke_fail "the sandbox reached the host: $output" ;; esac
  case "$output" in *api-unreachable*) ;; *) smoke_fail "the sandbox reached egress-service's HTTP port: $output" ;; esac
  case "$output" in *"proxy-answer: HTTP/1.1 403"*) ;; *) smoke_fail "egress-service's proxy (3128) did not refuse the unlisted host for the sandbox: $output" ;; esac
  log "run SUCCEEDED; from the sandbox the denied name was NXDOMAIN, the proxy refused it (403), neither the host nor egress-service's API answered"

  local anomalies found=""
  for waited in $(seq 1 60); do
    anomalies=$(curl -fsS "${member[@]}" "http://127.0.0.1:$egress_port/api/companies/$company/egress/anomalies") || smoke_fail "reading anomalies failed"
    found=$(printf '%s' "$anomalies" | python3 -c 'import json,sys
rows=json.load(sys.stdin)
mine=lambda reason: [a for a in rows if a.get("qname")=="denied.compose-smoke.example" and a.get("run_id")==sys.argv[1] and a.get("reason")==reason]
print(min(len(mine("not_allowlisted")), len(mine("proxy_not_allowlisted"))))' "$run")
    [ "${found:-0}" -gt 0 ] && break
    sleep 1
  done
  [ "${found:-0}" -gt 0 ] || smoke_fail "no DNS and proxy anomaly for denied.compose-smoke.example attributed to run $run: $anomalies"
  # the dashboard reads egress-service on each page view; its first calls after boot can miss their deadline
  local shown=0
  for _ in $(seq 1 30); do
    if curl -fsS "${member[@]}" "http://127.0.0.1:$ui_port/companies/$company/egress" | grep -q 'denied.compose-smoke.example'; then
      shown=1; break
    fi
    sleep 1
  done
  [ "$shown" = 1 ] || smoke_fail "the dashboard's egress page does not show the denial"
  log "the denials (DNS and proxy) are anomalies of run $run (egress-service API), and on the dashboard"

  # The A2A conformance kit: a second docker agent, published, called with an A2A-only token that names it. Its card
  # url comes from TRIMUS_A2A_PUBLIC_URL (above), the address this host reaches run-service at.
  local tck_agent card_url tck_token
  tck_agent=$(curl -fsS "${admin[@]}" -XPOST "$api/companies/$company/agents" -H 'Content-Type: application/json' -d @- <<JSON | json_field id
{"name": "a2a-tck", "adapter_type": "docker", "adapter_config": {"image": "trimus/busybox:local", "network": "$net",
 "command": ["sh", "-c", "sleep 2; echo done"]}}
JSON
  ) || smoke_fail "creating the conformance kit's docker agent failed"
  [ -n "$tck_agent" ] || smoke_fail "creating the conformance kit's docker agent returned no id"
  card_url=$(curl -fsS "${admin[@]}" -XPUT "$api/companies/$company/agents/$tck_agent/a2a" \
    -H 'Content-Type: application/json' -d '{"published": true}' | json_field card_url) || smoke_fail "publishing agent $tck_agent over A2A failed"
  case "$card_url" in "http://127.0.0.1:$run_port/"*) ;; *) smoke_fail "the published card url is not TRIMUS_A2A_PUBLIC_URL's: $card_url" ;; esac
  tck_token=$(curl -fsS "${admin[@]}" -XPOST "$api/companies/$company/tokens" -H 'Content-Type: application/json' \
    -d "{\"name\":\"a2a-tck\",\"a2a_agents\":[\"$tck_agent\"]}" | json_field token) || smoke_fail "creating an A2A-only token failed"
  [ -n "$tck_token" ] || smoke_fail "creating an A2A-only token returned no token"
  a2a_tck "$card_url" "$tck_token" || smoke_fail "the A2A conformance kit failed against agent $tck_agent (.trimus/a2a-tck/)"
  smoke_down
  if command -v iptables >/dev/null 2>&1 && iptables -S 2>/dev/null | grep -q "trimus-egress:$bridge"; then
    die "the egress firewall left its rules behind"
  fi
  log "compose smoke passed in $((SECONDS - started)) s"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  compose_smoke
fi
