#!/usr/bin/env python3
"""Where a run's dispatch time goes, step by step, against a raw `docker run` of the same flags.

Posts N runs (busybox `true`, one at a time) through the run-service API of a running `./trimus up` and times, from
the POST, each mark an outside observer sees: the POST's answer, the record on trimus.run.requested, DISPATCHED and
the other statuses on trimus.run.status, the start recorded on trimus.adapter.leases (Kafka record timestamps, read
with kcat), the engine's own create/start/die/destroy events (`docker events`), and the run seen ended by the API
(polled every 5 ms). Then N raw `docker run`s with bench/dispatch/dispatch.py's flags, timed by the same engine
events. Prints median, min and max of every mark. Needs kcat (Debian: apt-get install kcat) and the operator token in
TRIMUS_BOOTSTRAP_OPERATOR_TOKEN. Usage: bench/dispatch/steps.py [N] (default 10, after 3 unmeasured of each kind).
"""
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

from dispatch import FLAGS, DOCKER

BASE = os.environ.get("TRIMUS_RUN_SERVICE_URL", "http://127.0.0.1:8081")
KAFKA = os.environ.get("TRIMUS_KAFKA_BOOTSTRAP", "127.0.0.1:9092")
TOKEN = os.environ.get("TRIMUS_BOOTSTRAP_OPERATOR_TOKEN", "")
ENDED = ("SUCCEEDED", "FAILED", "REJECTED", "TIMED_OUT", "CANCELLED")
seen, lock = [], threading.Lock()


def call(method, path, body=None):
    req = urllib.request.Request(BASE + path, data=None if body is None else json.dumps(body).encode(), method=method,
                                 headers={"Content-Type": "application/json", "Authorization": "Bearer " + TOKEN})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read() or b"null")


def follow(cmd, kind):
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        with lock:
            seen.append((kind, line.strip()))


def marks_of(t0, match, prefix):
    with lock:
        lines = list(seen)
    marks = {}
    for kind, text in lines:
        if match not in text:
            continue
        parts = text.split(" ", 3)
        if kind == "docker":
            marks.setdefault(prefix + "engine " + parts[1], int(parts[0]) / 1e6 - t0)
        elif parts[1] == "trimus.run.status":
            try:
                status = json.loads(parts[3]).get("status")
            except (ValueError, IndexError):
                status = "?"
            marks.setdefault(f"status {status} sent", int(parts[0]) - t0)
        else:
            marks.setdefault(parts[1] + " record", int(parts[0]) - t0)
    return marks


def report(rows):
    keys = sorted({k for m in rows for k in m}, key=lambda k: statistics.median([m[k] for m in rows if k in m]))
    for key in keys:
        values = [m[key] for m in rows if key in m]
        print(f"{key:<34} median {statistics.median(values):7.1f} ms  min {min(values):7.1f}  max {max(values):7.1f}")


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    for topic in ("trimus.run.requested", "trimus.run.status", "trimus.adapter.leases"):
        threading.Thread(target=follow, daemon=True, args=(
            ["kcat", "-u", "-q", "-b", KAFKA, "-C", "-o", "end", "-t", topic, "-f", "%T %t %k %s\n"], "kafka")).start()
    threading.Thread(target=follow, daemon=True, args=(
        [DOCKER, "events", "--filter", "type=container", "--format",
         "{{.TimeNano}} {{.Action}} {{.Actor.Attributes.name}}"], "docker")).start()
    time.sleep(3)
    company = call("POST", "/api/companies", {"name": f"bench-steps-{int(time.time())}"})["id"]
    agent = call("POST", f"/api/companies/{company}/agents", {"name": "bench", "adapter_type": "docker",
                 "adapter_config": {"image": "trimus/busybox:local", "command": ["true"]}})["id"]
    rows = []
    for i in range(n + 3):
        with lock:
            seen.clear()
        t0 = time.time() * 1000
        run = call("POST", f"/api/companies/{company}/agents/{agent}/runs", {})
        answered = time.time() * 1000 - t0
        while call("GET", f"/api/companies/{company}/runs/{run['id']}")["status"] not in ENDED:
            time.sleep(0.005)
        ended = time.time() * 1000 - t0
        time.sleep(0.3)
        marks = marks_of(t0, run["id"], "")
        marks.update({"POST answered": answered, "ended, seen by the API": ended})
        if i >= 3:
            rows.append(marks)
    print("Trimus, ms after the POST:")
    report(rows)
    rows = []
    for i in range(n + 3):
        name = f"trimus-bench-steps-{i}-{int(time.time() * 1000)}"
        with lock:
            seen.clear()
        t0 = time.time() * 1000
        subprocess.run([DOCKER, "run", "--name", name, *FLAGS, "trimus/busybox:local", "true"], check=True,
                       capture_output=True)
        exited = time.time() * 1000 - t0
        time.sleep(0.2)
        marks = marks_of(t0, name, "raw ")
        marks["raw docker run returned"] = exited
        subprocess.run([DOCKER, "rm", "-f", name], capture_output=True)
        if i >= 3:
            rows.append(marks)
    print("raw docker run, ms after the call:")
    report(rows)


if __name__ == "__main__":
    main()
