package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

/**
 * What only the operator decides, refused when an agent is written: a network off TRIMUS_DOCKER_ALLOWED_NETWORKS
 * (default {@code none} and the egress network), root without TRIMUS_DOCKER_ALLOW_ROOT and a runtime off
 * TRIMUS_DOCKER_RUNTIMES. The adapter service checks them again for every run.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AgentNetworkAndUserTest {

    private static Map<String, Object> docker(Map<String, Object> config) {
        return Map.of("name", "attacker", "adapter_type", "docker", "adapter_config", config);
    }

    @Test
    void aNetworkTheOperatorDidNotListIsA400NamingTheFieldAndTheAllowedOnes() {
        String company = Api.createCompany("Initech");
        // Docker's default bridge, the host, another container's stack, the compose stack's own network, none at all
        for (String network : List.of("bridge", "host", "default", "container:4f1c2a9d", "trimus_default",
                "trimus-no-such-network")) {
            assertInvalidField(Api.postAgent(company, docker(Map.of("image", "busybox", "network", network))),
                    "adapter_config.network")
                    .body("detail", equalTo("adapter_config.network network " + network + " is not available to"
                            + " agents on this Trimus (allowed: none, trimus-egress-allowlist; the operator sets"
                            + " TRIMUS_DOCKER_ALLOWED_NETWORKS)"));
        }
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void theListedNetworksAreAccepted() {
        String company = Api.createCompany("Initrode");
        for (String network : List.of("none", "trimus-egress-allowlist")) {
            Api.postAgent(company, docker(Map.of("image", "busybox", "network", network))).statusCode(201);
        }
        Api.postAgent(company, docker(Map.of("image", "busybox"))).statusCode(201);
    }

    @Test
    void rootIsA400UnlessTheOperatorAllowsIt() {
        String company = Api.createCompany("Vandelay");
        for (String root : List.of("0", "0:0", "0:1000")) {
            assertInvalidField(Api.postAgent(company, docker(Map.of("image", "busybox", "user", root))),
                    "adapter_config.user")
                    .body("detail", startsWith("adapter_config.user asks for root (uid 0), which this Trimus does not"
                            + " allow (TRIMUS_DOCKER_ALLOW_ROOT=false)"));
            assertInvalidField(Api.postAgent(company, Map.of("name", "cli", "adapter_type", "claude_sandbox",
                    "adapter_config", Map.of("user", root))), "adapter_config.user");
        }
        assertInvalidField(Api.postAgent(company, docker(Map.of("image", "busybox", "user", "root"))),
                "adapter_config.user");
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(0));
        Api.postAgent(company, docker(Map.of("image", "busybox", "user", "1000:1000"))).statusCode(201);
    }

    @Test
    void aRuntimeTheOperatorDidNotListIsA400NamingTheFieldAndTheAllowedOnes() {
        String company = Api.createCompany("Globex");
        // the tests' run-service lists runc and runsc (TRIMUS_DOCKER_RUNTIMES); kata-runtime is not on it
        assertInvalidField(Api.postAgent(company, docker(Map.of("image", "busybox", "runtime", "kata-runtime"))),
                "adapter_config.runtime")
                .body("detail", equalTo("adapter_config.runtime runtime kata-runtime is not available to agents on this"
                        + " Trimus (allowed: runc, runsc; the operator sets TRIMUS_DOCKER_RUNTIMES)"));
        assertInvalidField(Api.postAgent(company, Map.of("name", "cli", "adapter_type", "codex_sandbox",
                "adapter_config", Map.of("runtime", "kata-runtime"))), "adapter_config.runtime");
        for (Object malformed : List.of("../../usr/bin/sh", "", 7, "RUNSC")) {
            assertInvalidField(Api.postAgent(company, docker(Map.of("image", "busybox", "runtime", malformed))),
                    "adapter_config.runtime");
        }
        assertInvalidField(Api.postAgent(company, Map.of("name", "local", "adapter_type", "claude_local",
                "adapter_config", Map.of("runtime", "runsc"))), "adapter_config.runtime");
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(0));

        Api.postAgent(company, docker(Map.of("image", "busybox", "runtime", "runsc"))).statusCode(201);
        Api.postAgent(company, Map.of("name", "cli", "adapter_type", "claude_sandbox",
                "adapter_config", Map.of("runtime", "runsc"))).statusCode(201);
        Api.postAgent(company, docker(Map.of("image", "busybox", "runtime", "runc"))).statusCode(201);
    }
}
