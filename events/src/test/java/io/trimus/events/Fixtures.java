package io.trimus.events;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Events with every field set, as the services build them. */
final class Fixtures {
    static final Instant AT = Instant.parse("2026-01-15T09:30:00.123456789Z");

    private Fixtures() {
    }

    static RunRequested runRequested() {
        return new RunRequested(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "docker",
                Json.parse("{\"image\":\"busybox:1.36\",\"command\":[\"sh\",\"-c\",\"echo hi\"],\"memory\":\"256m\"}"),
                new IssueRef("PROJ-42", "Fix the login form", "The button does nothing."),
                "Please fix the bug described in the issue.", AT,
                Map.of("ANTHROPIC_API_KEY", "q1Zk3mVb0aH2c9Xy0RkPqg8n6v3Lw1mZ2b7Yx0sAbCdEfGh="), null, Map.of());
    }

    static RunStatusChanged terminalStatus() {
        return new RunStatusChanged(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                RunState.FAILED, 1, "hello\nsh: fix-login: not found\n", "exited with code 1", AT,
                List.of("SEC-015: --dangerously-skip-permissions was dropped"), "adapter-host-1", "peer-task-7");
    }

    static RunStatusChanged cliStatus() {
        return RunStatusChanged.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), RunState.SUCCEEDED, 0,
                "{\"type\":\"result\",\"result\":\"Done.\"}", null).withCliResult("Done.",
                "{\"type\":\"result\",\"result\":\"Done.\"}", new RunUsage(1200L, 80L, 300L, 0L, null,
                new java.math.BigDecimal("0.0123"), "claude-sonnet-4-5", 2100L, 1));
    }

    static RunCancelRequested cancel() {
        return new RunCancelRequested(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), AT);
    }

    static RemoteTask remoteTask() {
        RunRequested request = runRequested().withIssuerMac("8mQh0m1kq0f3n7bqk4mPp6b0e8Vn2H1cV9Xr7s5uT3w=");
        return new RemoteTask(UUID.randomUUID(), request.runId(), "gpu", AT.plusSeconds(60), AT, request,
                "r2Yx4c1m0e9QbZ7a3kLw5d8H6jNf2pVt0sUq1oGi9yE=");
    }

    static WorkerHeartbeat heartbeat() {
        return new WorkerHeartbeat(UUID.randomUUID(), "build-host-7-3f9a", List.of("gpu", "eu"), AT, 5000, 1,
                List.of(UUID.randomUUID()));
    }

    static AdapterLease lease() {
        UUID started = UUID.randomUUID();
        return new AdapterLease(UUID.randomUUID(), "adapter-host-1", AdapterLease.ADAPTER, AT, 2000,
                List.of(started, UUID.randomUUID()), List.of(started));
    }

    static EgressAnomaly egressAnomaly() {
        return new EgressAnomaly(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "0b5c3f7e9a1d", "172.30.0.17", "exfil.attacker.example", "A", EgressAnomaly.NOT_ALLOWLISTED, 37,
                AT, AT.plusSeconds(9), true);
    }

    /** A connection the egress proxy refused, e.g. a name that resolves to the metadata endpoint. */
    static EgressAnomaly proxyAnomaly(String reason) {
        return new EgressAnomaly(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "0b5c3f7e9a1d", "172.30.0.17", "metadata.attacker.example", "CONNECT", reason, 1, AT, AT, true);
    }

        /** A connection report mode let through: it would have been denied in enforce mode. */
    static EgressAnomaly reportedAnomaly() {
        return new EgressAnomaly(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "0b5c3f7e9a1d", "172.30.0.17", "registry.npmjs.org", "TLS", EgressAnomaly.PROXY_NOT_ALLOWLISTED, 12, AT,
                AT, false);
    }

    /** A request the request rules of its host refused: method and path. */
    static EgressAnomaly requestAnomaly() {
        return new EgressAnomaly(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "0b5c3f7e9a1d", "172.30.0.17", "api.github.com", "TLS", EgressAnomaly.PROXY_REQUEST_DENIED, 1, AT,
                AT, true, "POST", "/repos/evil/x/git/refs");
    }

    /** A sandbox's names under one base domain scored over the threshold: the score and the signals that drove it. */
    static EgressAnomaly tunnellingAnomaly() {
        return new EgressAnomaly(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "0b5c3f7e9a1d", "172.30.0.17", "*.t.example", "A", EgressAnomaly.SUSPECTED_TUNNELLING, 1, AT, AT, false,
                null, null, 0.83, java.util.List.of("long_names", "high_entropy", "unique_names"));
    }

        static EgressAnomaly unattributedAnomaly() {
        return new EgressAnomaly(UUID.randomUUID(), null, null, null, null, "fd00:30::99", "api.github.com", "AAAA",
                EgressAnomaly.UNATTRIBUTED_SOURCE, 1, AT, AT, true);
    }

    static CanaryRequested canaryRequested() {
        return new CanaryRequested(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "c5d3c2b1a.canary.trimus.invalid", "1.1.1.1:443", "api.github.com:443", 25, AT);
    }

    static CanaryResult canaryResult() {
        return new CanaryResult(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), List.of(
                CanaryCheck.mustFail(CanaryCheck.UNLISTED_NAME, "c5d3c2b1a.canary.trimus.invalid", "NXDOMAIN", false),
                CanaryCheck.mustFail(CanaryCheck.BRIDGE_ROUTE, "172.30.0.1:22", "connection refused by the host", true),
                CanaryCheck.mustWork(CanaryCheck.ALLOWED_HOST, "CONNECT api.github.com:443 via 172.30.0.1:3128",
                        "HTTP 200", true)), null, "adapter-1", AT);
    }

    static CanaryResult canaryThatCouldNotRun() {
        return new CanaryResult(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), List.of(
                CanaryCheck.skipped(CanaryCheck.ALLOWED_HOST, CanaryCheck.ALLOWED, "no host to try")),
                "the image trimus/busybox:local is not on this engine", "adapter-1", AT);
    }

    static AuditRecord auditRecord() {
        return new AuditRecord(UUID.randomUUID(), AT.plusNanos(-789), new AuditRecord.Actor(AuditRecord.Actor.USER,
                UUID.randomUUID(), "alice@example.com"), UUID.randomUUID(), AuditRecord.SECRET_PUT,
                new AuditRecord.Target("secret", null, "ANTHROPIC_API_KEY"),
                Map.of("created", true, "masked", true, "hosts", List.of("api.anthropic.com")),
                AuditRecord.Source.of("10.0.3.7", "203.0.113.9", "Mozilla/5.0"));
    }

    /** A platform change Trimus made on its own: no company, no request. */
    static AuditRecord platformAuditRecord() {
        return AuditRecord.now(AuditRecord.Actor.TRIMUS, null, null, AuditRecord.OPERATOR_PUT,
                new AuditRecord.Target("operator", UUID.randomUUID().toString(), "ops@example.com"), null);
    }
}
