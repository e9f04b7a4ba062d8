package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docker-compose.yml takes {@code --scale} where docs/scaling.md says it does: a service that scales has no fixed
 * container name or address, and each published port's host side is a variable that may name a range (one port per
 * replica) or, for the adapter's health port, is a free port by default; the adapter's instance name is each
 * container's own. egress-service holds the egress network's one resolver address.
 */
class ComposeReplicasTest {

    private static final Path REPO = ManifestTree.locate().root().getParent();
    private static final JsonNode SERVICES = read(REPO.resolve("docker-compose.yml")).path("services");
    // "${ADDR}:${VAR:-default}:containerPort": the host side, a variable with its default
    private static final Pattern PUBLISHED = Pattern.compile("\\$\\{TRIMUS_PUBLISH_ADDR:-127\\.0\\.0\\.1}:\\$\\{(\\w+):-([^}]*)}:(\\d+)");

    @ParameterizedTest(name = "{0} has no fixed name or address a second replica would collide with")
    @ValueSource(strings = {"run-service", "adapter-lambda-service", "admin-ui"})
    void aServiceThatScalesHasNoFixedNameOrAddress(String service) {
        JsonNode definition = SERVICES.path(service);

        assertThat(definition.has("container_name")).isFalse();
        assertThat(definition.has("hostname")).as("the host name is the adapter's instance name").isFalse();
        assertThat(definition.path("networks").findValues("ipv4_address")).isEmpty();
        assertThat(definition.path("network_mode").asText()).isNotEqualTo("host");
    }

    @ParameterizedTest(name = "{0} publishes {2} from {1} (default \"{3}\")")
    @CsvSource({
            "run-service,            TRIMUS_RUN_SERVICE_PORT, 8081, 8081",
            "admin-ui,               TRIMUS_ADMIN_UI_PORT,    8080, 8080",
            "adapter-lambda-service, TRIMUS_ADAPTER_PORT,     8082, ''"})
    void eachPublishedPortOfAServiceThatScalesTakesARange(String service, String variable, String port, String byDefault) {
        List<Matcher> ports = ports(service);

        assertThat(ports).singleElement().satisfies(m -> {
            assertThat(m.group(1)).isEqualTo(variable);
            assertThat(m.group(2)).as("an empty default is a free host port per replica").isEqualTo(byDefault);
            assertThat(m.group(3)).isEqualTo(port);
        });
    }

    @Test
    void adapterReplicasNameThemselves() {
        JsonNode environment = SERVICES.path("adapter-lambda-service").path("environment");

        // not even empty: ${trimus.docker.instance:adapter} reads an empty variable as the name "", one for all replicas
        assertThat(environment.has("TRIMUS_DOCKER_INSTANCE")).as("TRIMUS_DOCKER_INSTANCE is each container's host name")
                .isFalse();
    }

    @Test
    void egressServiceHoldsTheResolverAddressSoItRunsOnce() {
        JsonNode egress = SERVICES.path("egress-service");

        assertThat(egress.path("networks").path("egress").path("ipv4_address").asText())
                .isEqualTo("${TRIMUS_EGRESS_RESOLVER_IP:-172.30.0.2}");
        assertThat(SERVICES.path("adapter-lambda-service").path("environment").path("TRIMUS_EGRESS_DNS_DEFAULT").asText())
                .isEqualTo("${TRIMUS_EGRESS_RESOLVER_IP:-172.30.0.2}");
    }

    private static List<Matcher> ports(String service) {
        List<Matcher> found = new ArrayList<>();
        for (JsonNode port : SERVICES.path(service).path("ports")) {
            Matcher m = PUBLISHED.matcher(port.asText());
            assertThat(m.matches()).as("%s publishes %s", service, port.asText()).isTrue();
            found.add(m);
        }
        return found;
    }

    private static JsonNode read(Path file) {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
