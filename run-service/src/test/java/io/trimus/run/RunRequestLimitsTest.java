package io.trimus.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/** Every part of a run request, and the event it becomes, is bounded; a refusal names the part and stores nothing. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RunRequestLimitsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aTwoMegabyteIssueBodyIsRefusedNamingTheFieldAndNothingIsStored() {
        String company = Api.createCompany("Verbose " + UUID.randomUUID());
        String agent = busyboxAgent(company, Map.of());

        assertInvalidField(Api.postRun(company, agent, Map.of("issue", Map.of("title", "Log dump",
                "body", "x".repeat(2 * 1024 * 1024)))), "issue.body")
                .body("detail", containsString("65536 bytes"));

        assertNothingStoredFor(company);
    }

    @Test
    void anIssueTitleOrIdOverItsLimitIsRefusedNamingTheField() {
        String company = Api.createCompany("Wordy " + UUID.randomUUID());
        String agent = busyboxAgent(company, Map.of());

        assertInvalidField(Api.postRun(company, agent, Map.of("issue", Map.of("title", "t".repeat(513)))),
                "issue.title");
        assertInvalidField(Api.postRun(company, agent, Map.of("issue", Map.of("id", "i".repeat(201)))), "issue.id");
        Api.startRun(company, agent, Map.of("issue", Map.of("id", "i".repeat(200), "title", "t".repeat(512),
                "body", "b".repeat(65_536))));
    }

    @Test
    void anAdapterConfigValueOrMapOverItsLimitIsRefusedNamingTheField() {
        String company = Api.createCompany("Sprawl " + UUID.randomUUID());

        assertInvalidField(Api.postAgent(company, dockerAgent(Map.of("env", Map.of("FOO", "v".repeat(4097))))),
                "adapter_config.env.FOO");
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < 65; i++) {
            env.put("VAR_" + i, "v");
        }
        assertInvalidField(Api.postAgent(company, dockerAgent(Map.of("env", env))), "adapter_config.env");
        assertInvalidField(Api.postAgent(company, dockerAgent(Map.of("command", List.of("sh", "c".repeat(4097))))),
                "adapter_config.command[1]");
        assertInvalidField(Api.postAgent(company, Map.of("name", "remote", "adapter_type", "remote", "adapter_config",
                Map.of("worker_tag", "gpu", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "env", Map.of("BAR", "v".repeat(4097)))))),
                "adapter_config.adapter_config.env.BAR");
        assertInvalidField(Api.postAgent(company, dockerAgent(Map.of("command",
                Collections.nCopies(17, "c".repeat(4096))))), "adapter_config");
        Api.listRuns(company).statusCode(200);
        assertThat(Db.texts("select id::text from run.agent where company_id = ?::uuid", company)).isEmpty();
    }

    @Test
    void aRunWhoseEventWouldNotFitOneKafkaRecordIsRefusedWith413AndNothingIsStored() {
        String company = Api.createCompany("Bulky " + UUID.randomUUID());
        // an agent stored before adapter_config had its 64 KiB cap: every argument within its 4096 characters, 255
        // of them, so its run.requested is > 1 MB
        String agent = busyboxAgent(company, Map.of());
        Db.update("update run.agent set adapter_config = ?::jsonb where id = ?::uuid", JSON.valueToTree(Map.of(
                "image", "trimus-test/busybox:latest", "command", Collections.nCopies(255, "a".repeat(4096))))
                .toString(), agent);

        assertProblem(Api.postRun(company, agent, Map.of("input", "go")), 413)
                .body("detail", containsString("TRIMUS_OUTBOX_MAX_RECORD_BYTES"))
                .body("detail", containsString("1040384"));

        assertNothingStoredFor(company);
    }

    private static String busyboxAgent(String company, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(Map.of("image", "trimus-test/busybox:latest"));
        config.putAll(extra);
        return Api.createDockerAgent(company, config);
    }

    private static Map<String, Object> dockerAgent(Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(Map.of("image", "busybox"));
        config.putAll(extra);
        return Map.of("name", "big", "adapter_type", "docker", "adapter_config", config);
    }

    private static void assertNothingStoredFor(String company) {
        assertThat(Db.texts("select id::text from run.run where company_id = ?::uuid", company)).isEmpty();
        // the audit log records the company and agent being made; no run request may be queued
        assertThat(Db.texts("select id::text from run.outbox_event where payload like ? and topic <> 'trimus.audit'",
                "%" + company + "%"))
                .isEmpty();
    }
}
