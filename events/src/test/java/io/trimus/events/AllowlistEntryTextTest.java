package io.trimus.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Allowlist entries between egress-service's JSON (strings and objects) and the text its readers hold. */
class AllowlistEntryTextTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aStringIsItselfAndAnObjectItsCompactJsonBothWays() throws Exception {
        String object = "{\"host\":\"api.github.com\",\"ports\":[443],\"methods\":[\"GET\"],\"paths\":[\"/repos/acme/\"]}";

        assertThat(AllowlistEntryText.of(JSON.readTree("\"git.example.com:22\""))).isEqualTo("git.example.com:22");
        assertThat(AllowlistEntryText.of(JSON.readTree(object))).isEqualTo(object);
        assertThat(AllowlistEntryText.toJson(object)).isEqualTo(JSON.readTree(object));
        assertThat(AllowlistEntryText.toJson("pypi.org").isTextual()).isTrue();
        assertThat(AllowlistEntryText.isObject("pypi.org")).isFalse();
    }

    @Test
    void textStartingWithABraceThatIsNoObjectIsRefusedInOneSentence() {
        for (String bad : List.of("{", "{\"host\":}", "{} trailing", "{[1]}")) {
            assertThatThrownBy(() -> AllowlistEntryText.toJson(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("starts with { but is no JSON object");
        }
    }

    @Test
    void anObjectsHostAndPortsAreRead() {
        assertThat(AllowlistEntryText.hostPorts("{\"host\":\"API.Example.com.\",\"ports\":[443,8443]}")).get()
                .isEqualTo(new AllowlistEntryText.HostPorts("api.example.com", List.of(443, 8443)));
        assertThat(AllowlistEntryText.hostPorts("{\"host\":\"a.example\"}")).get()
                .extracting(AllowlistEntryText.HostPorts::ports).isEqualTo(List.of());
        assertThat(AllowlistEntryText.hostPorts("{\"host\":42}")).isEmpty();
        assertThat(AllowlistEntryText.hostPorts("{\"host\":\"a.example\",\"ports\":[\"443\"]}")).isEmpty();
        assertThat(AllowlistEntryText.hostPorts("a.example")).isEmpty();
        assertThat(AllowlistEntryText.hostPorts("{broken")).isEmpty();
    }
}
