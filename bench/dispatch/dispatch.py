#!/usr/bin/env python3
"""Dispatch overhead of Trimus vs raw `docker run`, measured in one invocation.

N runs of busybox `true` through the run-service API (docker adapter, default hardening) against N
`docker run --rm` of the same image with the same flags. Reports median and p99 of time-to-container-started
and time-to-SUCCEEDED (raw: time to exit) and the ratio Trimus / raw. With --burst M it then posts M runs at once
and reports runs per second from the first POST to the last SUCCEEDED (throughput). Needs a running Trimus
(./trimus up); --label names the configuration in the output (e.g. how many adapter instances).
"""
import argparse
import json
import statistics
import subprocess
import time
import os
import urllib.request
from datetime import datetime

DOCKER = "/usr/bin/docker"
# What Trimus gives a docker agent with the defaults (ContainerPolicy, DockerConfig): read-only root, /tmp tmpfs, no
# network, no capabilities, no new privileges, 100 PIDs, 1g memory with swap pinned to it, 1 CPU, the json-file log
# driver rotated at 10m x 2, and a root image run as nobody. (Until 2026-12-05 the raw side left out memory, CPUs,
# log options and user, so it did less work than the Trimus side.)
FLAGS = ["--read-only", "--tmpfs", "/tmp:rw,exec,nosuid,nodev,size=64m", "--network", "none",
         "--security-opt", "no-new-privileges", "--cap-drop", "ALL", "--pids-limit", "100",
         "--memory", "1g", "--memory-swap", "1g", "--cpus", "1",
         "--log-driver", "json-file", "--log-opt", "max-size=10m", "--log-opt", "max-file=2",
         "--user", "65534:65534"]


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    token = os.environ.get("TRIMUS_BOOTSTRAP_OPERATOR_TOKEN")
    if token:
        headers["Authorization"] = "Bearer " + token
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read() or b"null")


def parse_ts(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def percentile(values, p):
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def trimus_run(base, company, agent):
    t0 = time.time()
    run = call(base, "POST", f"/api/companies/{company}/agents/{agent}/runs", {})
    while True:  # time-to-SUCCEEDED is when a client first sees it through the API (polled every 10 ms)
        r = call(base, "GET", f"/api/companies/{company}/runs/{run['id']}")
        if r["status"] in ("SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED"):
            seen = time.time() - t0
            break
        time.sleep(0.01)
    if r["status"] != "SUCCEEDED":
        raise SystemExit(f"run {run['id']} ended {r['status']}: {r.get('error')}")
    return parse_ts(r["started_at"]) - t0, seen


def raw_run(image, index):
    name = f"trimus-bench-raw-{index}-{int(time.time() * 1000)}"
    t0 = time.time()
    # --rm would remove the container before we can read its start time, so remove it after inspecting
    subprocess.run([DOCKER, "run", "--name", name, *FLAGS, image, "true"], check=True, capture_output=True)
    done = time.time() - t0
    started = subprocess.run([DOCKER, "inspect", "-f", "{{.State.StartedAt}}", name], check=True,
                             capture_output=True, text=True).stdout.strip()
    subprocess.run([DOCKER, "rm", "-f", name], check=True, capture_output=True)
    return parse_ts(started[:26] + "+00:00") - t0, done


def burst(base, company, agent, count):
    """Posts `count` runs at once, then waits for all; returns runs per second from the first POST to the last end."""
    t0 = time.time()
    ids = [call(base, "POST", f"/api/companies/{company}/agents/{agent}/runs", {})["id"] for _ in range(count)]
    pending = set(ids)
    while pending:
        for run_id in list(pending):
            r = call(base, "GET", f"/api/companies/{company}/runs/{run_id}")
            if r["status"] in ("SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED"):
                if r["status"] != "SUCCEEDED":
                    raise SystemExit(f"run {run_id} ended {r['status']}: {r.get('error')}")
                pending.discard(run_id)
        time.sleep(0.05)
    return count / (time.time() - t0)


def summary(label, values):
    return {"label": label, "median_ms": statistics.median(values) * 1000, "p99_ms": percentile(values, 99) * 1000}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", default="http://127.0.0.1:8081")
    ap.add_argument("--image", default="trimus/busybox:local")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10, help="unmeasured runs of each kind first (JIT, caches)")
    ap.add_argument("--burst", type=int, default=0, help="then post this many runs at once and report runs/s")
    ap.add_argument("--label", default="", help="the configuration measured, printed with every line")
    args = ap.parse_args()
    tag = f"[{args.label}] " if args.label else ""

    company = call(args.base, "POST", "/api/companies", {"name": "bench-dispatch"})["id"]
    agent = call(args.base, "POST", f"/api/companies/{company}/agents",
                 {"name": "bench", "adapter_type": "docker",
                  "adapter_config": {"image": args.image, "command": ["true"]}})["id"]
    for i in range(args.warmup):  # consumer groups, JIT, engine caches: measured runs compare steady states
        trimus_run(args.base, company, agent)
        raw_run(args.image, -1 - i)

    trimus, raw = [], []
    for i in range(args.runs):  # interleaved, so both see the same machine state
        trimus.append(trimus_run(args.base, company, agent))
        raw.append(raw_run(args.image, i))

    rows = [summary("trimus started", [t[0] for t in trimus]), summary("raw started", [r[0] for r in raw]),
            summary("trimus succeeded", [t[1] for t in trimus]), summary("raw exited", [r[1] for r in raw])]
    print(f"{tag}{'series':<18}{'median ms':>12}{'p99 ms':>12}")
    for row in rows:
        print(f"{tag}{row['label']:<18}{row['median_ms']:>12.1f}{row['p99_ms']:>12.1f}")
    for phase, t, r in (("started", rows[0], rows[1]), ("done", rows[2], rows[3])):
        print(f"{tag}ratio trimus/raw time-to-{phase}: median {t['median_ms'] / r['median_ms']:.2f}x, "
              f"p99 {t['p99_ms'] / r['p99_ms']:.2f}x")
    if args.burst:
        print(f"{tag}throughput: {burst(args.base, company, agent, args.burst):.1f} runs/s"
              f" ({args.burst} runs posted at once, POST to SUCCEEDED)")


if __name__ == "__main__":
    main()
