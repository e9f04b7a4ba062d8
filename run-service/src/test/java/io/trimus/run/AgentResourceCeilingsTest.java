package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * The operator's ceilings on what a container agent may ask for (TRIMUS_DOCKER_MAX_TIMEOUT_SEC, _MAX_PIDS,
 * _MAX_MEMORY, _MAX_CPUS, defaults 3600 s, 1024, 4g and 2), refused when a docker or *_sandbox agent is written with
 * 400 naming the field and the ceiling. The adapter service checks them again for every run.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AgentResourceCeilingsTest {

    private static Map<String, Object> agent(String adapterType, Map<String, Object> config) {
        return Map.of("name", "greedy", "adapter_type", adapterType, "adapter_config", config);
    }

    private static Map<String, Object> docker(String field, Object value) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("image", "busybox");
        config.put(field, value);
        return config;
    }

    @Test
    void askingAboveACeilingIsA400NamingTheFieldAndTheCeiling() {
        String company = Api.createCompany("Hooli");
        Map<String, Object> above = Map.of("timeout_sec", 3601, "pids_limit", 1025, "memory", "4097m", "cpus", 2.01);
        Map<String, String> refusals = Map.of(
                "timeout_sec", "adapter_config.timeout_sec asks for 3601 s, above this Trimus's ceiling of 3600 s"
                        + " (the operator sets TRIMUS_DOCKER_MAX_TIMEOUT_SEC)",
                "pids_limit", "adapter_config.pids_limit asks for 1025, above this Trimus's ceiling of 1024"
                        + " (the operator sets TRIMUS_DOCKER_MAX_PIDS)",
                "memory", "adapter_config.memory asks for 4097m, above this Trimus's ceiling of 4g"
                        + " (the operator sets TRIMUS_DOCKER_MAX_MEMORY)",
                "cpus", "adapter_config.cpus asks for 2.01, above this Trimus's ceiling of 2"
                        + " (the operator sets TRIMUS_DOCKER_MAX_CPUS)");

        above.forEach((field, value) -> {
            assertInvalidField(Api.postAgent(company, agent("docker", docker(field, value))), "adapter_config." + field)
                    .body("detail", equalTo(refusals.get(field)));
            for (String sandbox : new String[]{"claude_sandbox", "codex_sandbox"}) {
                assertInvalidField(Api.postAgent(company, agent(sandbox, Map.of(field, value))),
                        "adapter_config." + field).body("detail", equalTo(refusals.get(field)));
            }
        });
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void askingExactlyTheCeilingIsAccepted() {
        String company = Api.createCompany("Pied Piper");
        Map<String, Object> atCeiling = Map.of("timeout_sec", 3600, "pids_limit", 1024, "memory", "4g", "cpus", 2);

        Map<String, Object> config = new LinkedHashMap<>(atCeiling);
        config.put("image", "busybox");
        Api.postAgent(company, agent("docker", config)).statusCode(201);
        Api.postAgent(company, agent("claude_sandbox", atCeiling)).statusCode(201);
    }
}
