package io.trimus.events.secrets;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.events.IssueRef;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A remote task verifies only as run-service and the dispatcher made it, and survives a JSON round trip. */
class TaskMacsTest {
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    private static RunRequested request() throws Exception {
        return new RunRequested(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "docker",
                JSON.readTree("{\"image\":\"busybox\",\"timeout_sec\":10,\"cpus\":1.50,\"command\":[\"echo\",\"hi\"]}"),
                new IssueRef("T-1", "title", null), "go", Instant.now(), Map.of("A", "c2VhbGVk"), null, Map.of());
    }

    @Test
    void anIssuedTaskVerifiesAfterAJsonRoundTripAndNothingElseDoes() throws Exception {
        TaskMacs macs = new TaskMacs(DispatchSecretsTest.randomKey());
        RunRequested issued = request();
        issued = issued.withIssuerMac(macs.issue(issued, "gpu"));
        RemoteTask task = new RemoteTask(UUID.randomUUID(), issued.runId(), "gpu", Instant.now().plusSeconds(60),
                Instant.now(), issued, null);
        task = task.withMac(macs.stamp(task));

        RemoteTask received = JSON.readValue(JSON.writeValueAsBytes(task), RemoteTask.class);
        assertThat(macs.issued(received.request(), "gpu")).isTrue();
        assertThat(macs.stamped(received)).isTrue();

        RunRequested r = received.request();
        assertThat(macs.issued(r, "other")).isFalse();
        assertThat(macs.issued(new RunRequested(r.id(), r.runId(), UUID.randomUUID(), r.agentId(), r.adapterType(),
                r.adapterConfig(), r.issue(), r.input(), r.requestedAt(), r.secrets(), r.issuerMac()), "gpu")).isFalse();
        assertThat(macs.issued(new RunRequested(r.id(), r.runId(), r.companyId(), r.agentId(), r.adapterType(),
                JSON.readTree("{\"image\":\"evil\"}"), r.issue(), r.input(), r.requestedAt(), r.secrets(),
                r.issuerMac()), "gpu")).isFalse();
        assertThat(macs.issued(r.withIssuerMac(null), "gpu")).isFalse();
        assertThat(macs.stamped(new RemoteTask(received.id(), received.runId(), "gpu",
                received.claimBy().plusSeconds(3600), received.dispatchedAt(), r, received.mac()))).isFalse();
        assertThat(new TaskMacs(DispatchSecretsTest.randomKey()).stamped(received)).isFalse();
    }

    @Test
    void canonicalJsonIgnoresKeyOrderAndNumberSpelling() throws Exception {
        assertThat(TaskMacs.canonical(JSON.readTree("{\"b\":1.50,\"a\":[1,{\"y\":true,\"x\":null}]}")))
                .isEqualTo(TaskMacs.canonical(JSON.readTree("{\"a\":[1.0,{\"x\":null,\"y\":true}],\"b\":1.5}")));
    }
}
