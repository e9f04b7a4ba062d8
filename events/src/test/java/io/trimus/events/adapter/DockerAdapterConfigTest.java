package io.trimus.events.adapter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A docker adapter_config is accepted only when every setting is sane, and a refusal names the setting. */
class DockerAdapterConfigTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aFullConfigIsReadIntoItsSettings() {
        DockerAdapterConfig config = DockerAdapterConfig.parse(json("""
                {"image": "registry.example.com:5000/team/agent:1.2.3",
                 "command": ["sh", "-c", "make test"],
                 "env": {"LANG": "C.UTF-8", "_DEBUG": ""},
                 "network": "trimus-build_net.1",
                 "writable": true,
                 "pids_limit": 64,
                 "memory": "512m",
                 "cpus": 1.5,
                 "timeout_sec": 600}
                """));

        assertThat(config.image()).isEqualTo("registry.example.com:5000/team/agent:1.2.3");
        assertThat(config.command()).containsExactly("sh", "-c", "make test");
        assertThat(config.env()).containsExactlyInAnyOrderEntriesOf(Map.of("LANG", "C.UTF-8", "_DEBUG", ""));
        assertThat(config.network()).isEqualTo("trimus-build_net.1");
        assertThat(config.writable()).isTrue();
        assertThat(config.pidsLimit()).isEqualTo(64L);
        assertThat(config.memory()).isEqualTo("512m");
        assertThat(config.memoryBytes()).isEqualTo(512L * 1024 * 1024);
        assertThat(config.cpus()).isEqualTo(1.5);
        assertThat(config.timeoutSec()).isEqualTo(600);
    }

    @Test
    void anImageAloneGetsTheLockedDownDefaults() {
        DockerAdapterConfig config = DockerAdapterConfig.parse(json("{\"image\": \"busybox:1.36\"}"));

        assertThat(config.command()).isEmpty();
        assertThat(config.env()).isEmpty();
        assertThat(config.network()).isEqualTo(DockerAdapterConfig.NETWORK_NONE);
        assertThat(config.writable()).isFalse();
        assertThat(config.pidsLimit()).isNull();
        assertThat(config.memory()).isNull();
        assertThat(config.memoryBytes()).isNull();
        assertThat(config.cpus()).isNull();
        assertThat(config.timeoutSec()).isNull();
    }

    @Test
    void explicitNullsMeanTheDefaults() {
        DockerAdapterConfig config = DockerAdapterConfig.parse(json("""
                {"image": "busybox", "command": null, "env": null, "network": null, "writable": null,
                 "pids_limit": null, "memory": null, "cpus": null, "timeout_sec": null}
                """));

        assertThat(config).isEqualTo(DockerAdapterConfig.parse(json("{\"image\": \"busybox\"}")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"busybox", "busybox:1.36", "library/busybox:latest", "ghcr.io/org/my-agent:v2",
            "localhost:5000/agent", "my_org/agent__x:1",
            "busybox@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"})
    void imageReferencesAsDockerWritesThemAreAccepted(String image) {
        assertThat(DockerAdapterConfig.parse(json("{\"image\": \"" + image + "\"}")).image()).isEqualTo(image);
    }

    @Test
    void theTimeoutBoundsAreInclusive() {
        assertThat(DockerAdapterConfig.parse(json("{\"image\": \"busybox\", \"timeout_sec\": 10}")).timeoutSec())
                .isEqualTo(10);
        assertThat(DockerAdapterConfig.parse(json("{\"image\": \"busybox\", \"timeout_sec\": 86400}")).timeoutSec())
                .isEqualTo(86_400);
    }

    @Test
    void aLoweredFloorAcceptsShorterTimeoutsAndStillRefusesBelowIt() {
        assertThat(DockerAdapterConfig.parse(json("{\"image\": \"busybox\", \"timeout_sec\": 3}"), 3).timeoutSec())
                .isEqualTo(3);
        assertThatThrownBy(() -> DockerAdapterConfig.parse(json("{\"image\": \"busybox\", \"timeout_sec\": 2}"), 3))
                .isInstanceOf(AdapterConfigException.class)
                .hasMessageContaining("must be a whole number of seconds between 3 and 86400");
        assertThatThrownBy(() -> DockerAdapterConfig.parse(json("{\"image\": \"busybox\", \"timeout_sec\": 3}")))
                .as("the default floor").isInstanceOf(AdapterConfigException.class)
                .hasMessageContaining("between 10 and 86400");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {}                                                      | adapter_config.image
            {"image": null}                                         | adapter_config.image
            {"image": "Busybox:1"}                                  | adapter_config.image
            {"image": "busy box"}                                   | adapter_config.image
            {"image": ""}                                           | adapter_config.image
            {"image": "busybox:1; rm -rf /"}                        | adapter_config.image
            {"image": 42}                                           | adapter_config.image
            {"image": "busybox", "privileged": true}                | adapter_config.privileged
            {"image": "busybox", "Image": "busybox"}                | adapter_config.Image
            {"image": "busybox", "pids_limit": 0}                   | adapter_config.pids_limit
            {"image": "busybox", "pids_limit": -1}                  | adapter_config.pids_limit
            {"image": "busybox", "pids_limit": "x"}                 | adapter_config.pids_limit
            {"image": "busybox", "pids_limit": "64"}                | adapter_config.pids_limit
            {"image": "busybox", "pids_limit": 1.5}                 | adapter_config.pids_limit
            {"image": "busybox", "pids_limit": 4194305}             | adapter_config.pids_limit
            {"image": "busybox", "pids_limit": 18446744073709551680} | adapter_config.pids_limit
            {"image": "busybox", "memory": "lots"}                  | adapter_config.memory
            {"image": "busybox", "memory": "1k"}                    | adapter_config.memory
            {"image": "busybox", "memory": "5m"}                    | adapter_config.memory
            {"image": "busybox", "memory": "9999999999999999g"}     | adapter_config.memory
            {"image": "busybox", "memory": 536870912}               | adapter_config.memory
            {"image": "busybox", "cpus": 0}                         | adapter_config.cpus
            {"image": "busybox", "cpus": -1}                        | adapter_config.cpus
            {"image": "busybox", "cpus": "2"}                       | adapter_config.cpus
            {"image": "busybox", "cpus": 1025}                      | adapter_config.cpus
            {"image": "busybox", "timeout_sec": 9}                  | adapter_config.timeout_sec
            {"image": "busybox", "timeout_sec": 86401}              | adapter_config.timeout_sec
            {"image": "busybox", "timeout_sec": "600"}              | adapter_config.timeout_sec
            {"image": "busybox", "timeout_sec": 60.5}               | adapter_config.timeout_sec
            {"image": "busybox", "timeout_sec": 18446744073709551676} | adapter_config.timeout_sec
            {"image": "busybox", "network": "host"}                 | adapter_config.network
            {"image": "busybox", "network": "bad name"}             | adapter_config.network
            {"image": "busybox", "network": "-net"}                 | adapter_config.network
            {"image": "busybox", "network": "container:db"}         | adapter_config.network
            {"image": "busybox", "network": ""}                     | adapter_config.network
            {"image": "busybox", "network": 1}                      | adapter_config.network
            {"image": "busybox", "env": {"TRIMUS_RUN_ID": "x"}}     | adapter_config.env.TRIMUS_RUN_ID
            {"image": "busybox", "env": {"1BAD": "x"}}              | adapter_config.env.1BAD
            {"image": "busybox", "env": {"A-B": "x"}}               | adapter_config.env.A-B
            {"image": "busybox", "env": {"PORT": 8080}}             | adapter_config.env.PORT
            {"image": "busybox", "env": {"LIST": ["a"]}}            | adapter_config.env.LIST
            {"image": "busybox", "env": ["A=b"]}                    | adapter_config.env
            {"image": "busybox", "writable": "yes"}                 | adapter_config.writable
            {"image": "busybox", "writable": 1}                     | adapter_config.writable
            {"image": "busybox", "command": "echo hi"}              | adapter_config.command
            {"image": "busybox", "command": ["echo", 1]}            | adapter_config.command
            {"image": "busybox", "command": [["echo"]]}             | adapter_config.command
            [{"image": "busybox"}]                                  | adapter_config
            "busybox"                                               | adapter_config
            null                                                    | adapter_config
            """)
    void aBrokenSettingIsRefusedByName(String config, String field) {
        assertThatThrownBy(() -> DockerAdapterConfig.parse(json(config)))
                .isInstanceOfSatisfying(AdapterConfigException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).isNotBlank();
                });
    }

    @Test
    void noConfigAtAllIsRefused() {
        assertThatThrownBy(() -> DockerAdapterConfig.parse(null))
                .isInstanceOfSatisfying(AdapterConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("adapter_config"));
        assertThatThrownBy(() -> DockerAdapterConfig.parse(NullNode.getInstance()))
                .isInstanceOfSatisfying(AdapterConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("adapter_config"));
    }

    @Test
    void refusalsSayWhatWouldBeRight() {
        assertThatThrownBy(() -> DockerAdapterConfig.parse(json("{\"image\": \"busybox\", \"network\": \"host\"}")))
                .hasMessageContaining("isolation");
        assertThatThrownBy(() -> DockerAdapterConfig.parse(json("{\"image\": \"busybox\", \"privileged\": true}")))
                .hasMessageContaining("allowed:").hasMessageContaining("pids_limit");
        assertThatThrownBy(() -> DockerAdapterConfig.parse(json("{\"image\": \"busybox\", \"memory\": \"5m\"}")))
                .hasMessageContaining("6m");
    }

    @Test
    void everyEnvValueAndCommandArgumentIsBoundedAndARefusalNamesTheOneThatIsTooLong() {
        String fits = "x".repeat(ConfigFields.MAX_STRING_CHARS);
        String tooLong = fits + "x";
        Map<String, Object> atTheLimits = Map.of("image", "busybox",
                "command", java.util.Collections.nCopies(ConfigFields.MAX_LIST_ITEMS, fits),
                "env", envOf(ConfigFields.MAX_MAP_ENTRIES, fits));

        assertThat(DockerAdapterConfig.parse(JSON.valueToTree(atTheLimits)).env()).hasSize(ConfigFields.MAX_MAP_ENTRIES);
        assertRefused(Map.of("image", "busybox", "env", Map.of("LANG", "C", "FOO", tooLong)), "adapter_config.env.FOO");
        assertRefused(Map.of("image", "busybox", "command", List.of("sh", "-c", tooLong)), "adapter_config.command[2]");
        assertRefused(Map.of("image", "busybox", "env", envOf(ConfigFields.MAX_MAP_ENTRIES + 1, "x")),
                "adapter_config.env");
        assertRefused(Map.of("image", "busybox",
                "command", java.util.Collections.nCopies(ConfigFields.MAX_LIST_ITEMS + 1, "x")), "adapter_config.command");
    }

    @Test
    void anAbsurdlyLongKeyIsRefusedWithoutBeingEchoedWhole() {
        String name = "A".repeat(1_000_000);

        assertThatThrownBy(() -> DockerAdapterConfig.parse(JSON.valueToTree(Map.of("image", "busybox",
                "env", Map.of(name, "x")))))
                .isInstanceOfSatisfying(AdapterConfigException.class,
                        e -> assertThat(e.field()).startsWith("adapter_config.env.AAA").hasSizeLessThan(200));
        assertThatThrownBy(() -> DockerAdapterConfig.parse(JSON.valueToTree(Map.of("image", "busybox", name, 1))))
                .isInstanceOfSatisfying(AdapterConfigException.class, e -> {
                    assertThat(e.field()).hasSizeLessThan(200);
                    assertThat(e.getMessage()).hasSizeLessThan(1000);
                });
    }

    private static Map<String, String> envOf(int entries, String value) {
        Map<String, String> env = new java.util.HashMap<>();
        for (int i = 0; i < entries; i++) {
            env.put("VAR_" + i, value);
        }
        return env;
    }

    private static void assertRefused(Map<String, Object> config, String field) {
        assertThatThrownBy(() -> DockerAdapterConfig.parse(JSON.valueToTree(config)))
                .isInstanceOfSatisfying(AdapterConfigException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).contains(String.valueOf(field.endsWith("env") ? ConfigFields.MAX_MAP_ENTRIES
                            : field.endsWith("command") ? ConfigFields.MAX_LIST_ITEMS : ConfigFields.MAX_STRING_CHARS));
                });
    }

    @Test
    void anImageLongerThanDockerAllowsIsRefused() {
        String image = "a".repeat(250) + "/b:1.0";

        assertThatThrownBy(() -> DockerAdapterConfig.parse(json("{\"image\": \"" + image + "\"}")))
                .isInstanceOfSatisfying(AdapterConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("adapter_config.image"));
    }

    @Test
    void theCommandKeepsItsArgumentsApart() {
        List<String> argv = DockerAdapterConfig.parse(json("""
                {"image": "busybox", "command": ["sh", "-c", "echo \\"a b\\"; exit 3"]}
                """)).command();

        assertThat(argv).containsExactly("sh", "-c", "echo \"a b\"; exit 3");
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
