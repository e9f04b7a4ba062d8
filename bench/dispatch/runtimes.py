#!/usr/bin/env python3
"""gVisor (runsc) against runc, measured in one invocation (bench/dispatch/run.sh --runtimes).

1. Start and run-to-exit: N runs of busybox `true` through the API under each runtime (docker agents with
   adapter_config.runtime) and N raw `docker run --runtime` of the same image with the same flags, interleaved.
   Reports median and p99 of time-to-started and time-to-done per series, and the ratio runsc / runc on each side.
2. The proxy path from inside a sandbox: one run per runtime, a Node program in the Claude sandbox image on the
   egress network sending R sequential HTTP requests through the Trimus egress proxy (the HTTP_PROXY every sandbox
   gets) for a name not on the company's list, each answered 403 by the proxy: the sandbox's network stack, the
   bridge, the proxy's parsing and its decision, without an outside host. Reports requests per second and the
   ratio runsc / runc.

Needs a running Trimus with TRIMUS_DOCKER_RUNTIMES listing both (run.sh starts one so).
"""
import argparse
import statistics
import subprocess
import time

from dispatch import DOCKER, FLAGS, call, parse_ts, percentile, trimus_run

FINAL = ("SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED")
EGRESS_NETWORK = "trimus-egress-allowlist"
# sequential requests on one kept-alive connection to the proxy, each for a name the company has not listed
PROXY_PROGRAM = """
const http = require('http');
const proxy = new URL(process.env.HTTP_PROXY);
const agent = new http.Agent({keepAlive: true, maxSockets: 1});
const total = Number(process.argv[1]);
let done = 0, denied = 0;
const t0 = process.hrtime.bigint();
function next() {
  if (done === total) {
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`requests=${total} denied=${denied} seconds=${s.toFixed(3)}`);
    return;
  }
  const req = http.request({host: proxy.hostname, port: proxy.port, agent, method: 'GET',
      path: 'http://not-listed.bench.invalid/' + done, headers: {Host: 'not-listed.bench.invalid'}}, res => {
    if (res.statusCode === 403) denied++;
    res.resume();
    res.on('end', () => { done++; next(); });
  });
  req.on('error', e => { console.log('error ' + e.message); process.exit(1); });
  req.end();
}
next();
"""


def raw_run(image, runtime, index):
    name = f"trimus-bench-{runtime}-{index}-{int(time.time() * 1000)}"
    t0 = time.time()
    subprocess.run([DOCKER, "run", "--name", name, "--runtime", runtime, *FLAGS, image, "true"], check=True,
                   capture_output=True)
    done = time.time() - t0
    started = subprocess.run([DOCKER, "inspect", "-f", "{{.State.StartedAt}}", name], check=True,
                             capture_output=True, text=True).stdout.strip()
    subprocess.run([DOCKER, "rm", "-f", name], check=True, capture_output=True)
    return parse_ts(started[:26] + "+00:00") - t0, done


def await_end(base, company, run_id, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline:
        r = call(base, "GET", f"/api/companies/{company}/runs/{run_id}")
        if r["status"] in FINAL:
            return r
        time.sleep(0.2)
    raise SystemExit(f"run {run_id} did not end within {timeout} s")


def proxy_rate(base, company, runtime, image, requests):
    agent = call(base, "POST", f"/api/companies/{company}/agents",
                 {"name": f"bench-proxy-{runtime}", "adapter_type": "docker",
                  "adapter_config": {"image": image, "network": EGRESS_NETWORK, "runtime": runtime,
                                     "memory": "512m", "timeout_sec": 600,
                                     "command": ["node", "-e", PROXY_PROGRAM, str(requests)]}})["id"]
    run = call(base, "POST", f"/api/companies/{company}/agents/{agent}/runs", {})
    end = await_end(base, company, run["id"])
    out = end.get("output") or ""
    if end["status"] != "SUCCEEDED" or "requests=" not in out:
        raise SystemExit(f"the proxy run under {runtime} ended {end['status']}: {end.get('error')} {out[-400:]}")
    fields = dict(kv.split("=") for kv in out.strip().splitlines()[-1].split())
    if int(fields["denied"]) != requests:
        raise SystemExit(f"under {runtime} only {fields['denied']} of {requests} requests were answered 403: {out}")
    return requests / float(fields["seconds"])


def line(label, values):
    return f"{label:<44} median {statistics.median(values) * 1000:8.1f} ms   p99 {percentile(values, 99) * 1000:8.1f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", default="http://127.0.0.1:8081")
    ap.add_argument("--image", default="trimus/busybox:local")
    ap.add_argument("--proxy-image", default="trimus/claude-sandbox:latest")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--requests", type=int, default=2000, help="proxy requests per sandbox")
    args = ap.parse_args()
    runtimes = ["runc", "runsc"]

    company = call(args.base, "POST", "/api/companies", {"name": "bench-runtimes"})["id"]
    agents = {rt: call(args.base, "POST", f"/api/companies/{company}/agents",
                       {"name": f"bench-{rt}", "adapter_type": "docker",
                        "adapter_config": {"image": args.image, "command": ["true"], "runtime": rt}})["id"]
              for rt in runtimes}
    for i in range(args.warmup):
        for rt in runtimes:
            trimus_run(args.base, company, agents[rt])
            raw_run(args.image, rt, -1 - i)

    trimus = {rt: [] for rt in runtimes}
    raw = {rt: [] for rt in runtimes}
    for i in range(args.runs):  # interleaved: every series sees the same machine state
        for rt in runtimes:
            trimus[rt].append(trimus_run(args.base, company, agents[rt]))
            raw[rt].append(raw_run(args.image, rt, i))

    print(f"{args.runs} runs of each, after {args.warmup} unmeasured; busybox `true`, default hardening")
    medians = {}
    for rt in runtimes:
        for side, series in (("Trimus", trimus[rt]), ("raw docker run", raw[rt])):
            started = [s for s, _ in series]
            done = [d for _, d in series]
            print(line(f"{rt:<6} {side}: to started", started))
            print(line(f"{rt:<6} {side}: to done", done))
            medians[(rt, side, "started")] = statistics.median(started)
            medians[(rt, side, "done")] = statistics.median(done)
    for side in ("Trimus", "raw docker run"):
        for what in ("started", "done"):
            ratio = medians[("runsc", side, what)] / medians[("runc", side, what)]
            print(f"ratio runsc / runc, {side}, to {what}: {ratio:.2f}x")
    for rt in runtimes:
        ratio = medians[(rt, "Trimus", "done")] / medians[(rt, "raw docker run", "done")]
        print(f"ratio Trimus / raw under {rt}, to done: {ratio:.2f}x")

    rates = {rt: proxy_rate(args.base, company, rt, args.proxy_image, args.requests) for rt in runtimes}
    for rt in runtimes:
        print(f"proxy from inside a {rt} sandbox: {rates[rt]:8.0f} requests/s ({args.requests} sequential, 403)")
    print(f"ratio runsc / runc, proxy requests per second: {rates['runsc'] / rates['runc']:.2f}x")


if __name__ == "__main__":
    main()
