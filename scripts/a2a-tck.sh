#!/usr/bin/env bash
# ./trimus a2a-tck <card_url> <token>: run the A2A project's conformance kit (a2a-tck, 0.3.x line, vendored unchanged in
# system-tests/a2a-tck/kit) against a published agent, through its card url and a token that may call it (an A2A-only
# token naming the agent). Also TRIMUS_TCK_CARD_URL and TRIMUS_TCK_TOKEN, which keep the token off the command line.
# Two of the kit's categories, selected exactly as its run_tck.py selects them: mandatory (tests/mandatory/, markers
# mandatory_jsonrpc or mandatory_protocol) and capabilities (tests/optional/capabilities/). Fails when a test fails or
# errors that system-tests/a2a-tck/allowed-failures.txt does not list (Trimus's by-design refusals, docs/a2a.md
# "Conformance"). Sourced by .ci/compose-smoke.sh for a2a_tck. Reports: .trimus/a2a-tck/<category>.xml and .log.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

TCK_DIR=$ROOT/system-tests/a2a-tck
TCK_PYTHON=/usr/bin/python3
# Debian's packages of what the kit imports (its pyproject.toml; no PyPI needed) and their module names
TCK_PACKAGES=(python3-pytest python3-pytest-asyncio python3-httpx python3-requests python3-responses python3-deepdiff
  python3-jsonschema python3-packaging python3-yaml python3-dotenv python3-grpcio python3-protobuf python3-openssl)
TCK_MODULES="pytest, pytest_asyncio, httpx, requests, responses, deepdiff, jsonschema, packaging, yaml, dotenv, grpc, google.protobuf, OpenSSL"
# A category's longest run before it counts as hung (seconds)
TCK_CATEGORY_TIMEOUT=900

ensure_tck_python() {
  if is_debian_root; then apt_install "${TCK_PACKAGES[@]}" || die "installing the kit's Python packages failed"; fi
  [ -x "$TCK_PYTHON" ] && "$TCK_PYTHON" -c "import $TCK_MODULES" >/dev/null 2>&1 \
    || die "the A2A conformance kit needs $TCK_PYTHON with the modules $TCK_MODULES (Debian: apt-get install ${TCK_PACKAGES[*]})"
}

# a2a_tck <card_url> <token>: returns non-zero (after saying which tests) when a test outside allowed-failures.txt
# failed or errored; dies when the kit cannot run at all. Written to work also where a caller's `||` switches off
# errexit (every failing step is checked).
a2a_tck() {
  local card_url=${1:-} token=${2:-}
  [ -n "$card_url" ] && [ -n "$token" ] || die "usage: ./trimus a2a-tck <card_url> <token> (or TRIMUS_TCK_CARD_URL and TRIMUS_TCK_TOKEN)"
  local card_path=/.well-known/agent-card.json
  case "$card_url" in http://*"$card_path"|https://*"$card_path") ;; *) die "not an agent card url (http(s)://…$card_path): $card_url" ;; esac
  local endpoint=${card_url%"$card_path"}
  ensure_tck_python
  # The kit calls the url the card names: it must be this endpoint (TRIMUS_A2A_PUBLIC_URL), else it tests another host.
  local named
  named=$("$TCK_PYTHON" - "$card_url" <<'PY'
import json, sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=15) as answer:
        print(json.load(answer).get("url", ""))
except Exception as e:
    sys.exit(f"[trimus] {e}")
PY
  ) || die "no agent card at $card_url (is the agent published, run-service reachable?)"
  [ "$named" = "$endpoint" ] || die "the card at $card_url names $named as the agent's url, not $endpoint: the kit would call that address (TRIMUS_A2A_PUBLIC_URL must be the address the card url is reached at)"

  local out=$ROOT/.trimus/a2a-tck
  mkdir -p "$out" || die "cannot create $out"
  local category path rc reports=()
  for category in mandatory capabilities; do
    local select=()
    case "$category" in
      mandatory) path=tests/mandatory/; select=(-m "mandatory_jsonrpc or mandatory_protocol") ;;
      capabilities) path=tests/optional/capabilities/ ;;
    esac
    rm -f "$out/$category.xml"
    log "a2a-tck $category: $path${select:+ -m \"${select[1]}\"} against $endpoint"
    rc=0
    (cd "$TCK_DIR/kit" && TRIMUS_TCK_CARD_URL=$card_url TRIMUS_TCK_TOKEN=$token PYTHONPATH=$TCK_DIR/kit:$TCK_DIR \
      PYTHONDONTWRITEBYTECODE=1 timeout --kill-after=30 "$TCK_CATEGORY_TIMEOUT" "$TCK_PYTHON" -m pytest "$path" \
      "${select[@]}" --sut-url="$endpoint" --test-scope=all -p trimus_tck -p no:cacheprovider \
      --junitxml="$out/$category.xml" -q --tb=short) >"$out/$category.log" 2>&1 || rc=$?
    # pytest: 0 all passed, 1 some failed; anything else means the kit itself did not run through
    if [ "$rc" -gt 1 ] || [ ! -s "$out/$category.xml" ]; then
      tail -40 "$out/$category.log" >&2
      case "$rc" in
        124|137) die "a2a-tck $category did not finish within $TCK_CATEGORY_TIMEOUT s (log: $out/$category.log)" ;;
        *) die "a2a-tck $category did not run through (pytest exit $rc; log: $out/$category.log)" ;;
      esac
    fi
    reports+=("$category=$out/$category.xml")
  done

  # Per category: "mandatory: N passed, M failed, K skipped (xfailed X)" (X of the K are xfails), the failed ids;
  # then which failures allowed-failures.txt does not list.
  (cd "$TCK_DIR/kit" && "$TCK_PYTHON" - "$TCK_DIR/allowed-failures.txt" "${reports[@]}" <<'PY'
import os, sys
import xml.etree.ElementTree as ET

def say(line):
    print("[trimus] " + line, file=sys.stderr)

def test_id(case):
    """The pytest id (path.py::[Class::]name) of a JUnit testcase; a collection error's name is its module."""
    classname, name = case.get("classname", ""), case.get("name", "")
    if not classname:
        return name
    parts = classname.split(".")
    for end in range(len(parts), 0, -1):
        path = "/".join(parts[:end]) + ".py"
        if os.path.isfile(path):
            return "::".join([path] + parts[end:] + [name])
    return classname + "::" + name

def outcome(case):
    tags = {child.tag: child for child in case}
    if "error" in tags:
        return "error"
    if "failure" in tags:
        return "failed"
    if "skipped" in tags:
        return "xfailed" if tags["skipped"].get("type") == "pytest.xfail" else "skipped"
    return "passed"

with open(sys.argv[1]) as lines:
    allowed = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
worst = ["passed", "skipped", "xfailed", "failed", "error"]
seen, unexpected = {}, []
for report in sys.argv[2:]:
    category, xml = report.split("=", 1)
    results = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        tid, result = test_id(case), outcome(case)
        if worst.index(result) > worst.index(results.get(tid, "passed")) or tid not in results:
            results[tid] = result
    count = {kind: sum(1 for r in results.values() if r == kind) for kind in worst}
    errors = f", {count['error']} errors" if count["error"] else ""
    say(f"{category}: {count['passed']} passed, {count['failed']} failed{errors}, "
        f"{count['skipped'] + count['xfailed']} skipped (xfailed {count['xfailed']})")
    for tid, result in results.items():
        seen[tid] = result
        if result in ("failed", "error"):
            if tid in allowed:
                say(f"  {result} (allowed): {tid}")
            else:
                say(f"  {result}, NOT ALLOWED: {tid}")
                unexpected.append(tid)
for tid in allowed:
    if tid not in seen:
        say(f"allowed to fail, but not run: {tid}")
    elif seen[tid] not in ("failed", "error"):
        say(f"allowed to fail, {seen[tid]} now: {tid}")
if unexpected:
    say(f"a2a-tck: {len(unexpected)} test(s) failed that allowed-failures.txt does not list: " + ", ".join(unexpected))
    sys.exit(1)
PY
  ) || {
    for category in mandatory capabilities; do log "pytest's output, $category:"; cat "$out/$category.log" >&2; done
    log "a2a-tck FAILED (pytest's output above and in $out/<category>.log)"
    return 1
  }
  log "a2a-tck passed: only the allowed failures (system-tests/a2a-tck/allowed-failures.txt)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  a2a_tck "${1:-${TRIMUS_TCK_CARD_URL:-}}" "${2:-${TRIMUS_TCK_TOKEN:-}}"
fi
