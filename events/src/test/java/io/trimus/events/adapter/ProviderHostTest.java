package io.trimus.events.adapter;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderHostTest {

    @Test
    void onlyTheSandboxedCliAdaptersNeedTheirProvidersHost() {
        assertThat(ProviderHost.of(AdapterType.CLAUDE_SANDBOX)).contains("api.anthropic.com");
        assertThat(ProviderHost.of("codex_sandbox")).contains("api.openai.com");
        assertThat(ProviderHost.of(AdapterType.CLAUDE_LOCAL)).isEmpty();
        assertThat(ProviderHost.of("docker")).isEmpty();
        assertThat(ProviderHost.of("no_such_adapter")).isEmpty();
        assertThat(ProviderHost.of((String) null)).isEmpty();
    }

    @Test
    void theHostIsReachableThroughItsNameOrAParentWildcardOn443Only() {
        String host = "api.anthropic.com";
        assertThat(ProviderHost.reachable(List.of("api.anthropic.com"), host)).isTrue();
        assertThat(ProviderHost.reachable(List.of("API.Anthropic.com."), host)).isTrue();
        assertThat(ProviderHost.reachable(List.of("*.anthropic.com"), host)).isTrue();
        assertThat(ProviderHost.reachable(List.of("api.anthropic.com:443"), host)).isTrue();
        assertThat(ProviderHost.reachable(List.of("*.anthropic.com:443"), host)).isTrue();
        assertThat(ProviderHost.reachable(List.of("api.anthropic.com:8443"), host)).isFalse();
        assertThat(ProviderHost.reachable(List.of("*.api.anthropic.com"), host)).isFalse();
        assertThat(ProviderHost.reachable(List.of("anthropic.com"), host)).isFalse();
        assertThat(ProviderHost.reachable(List.of("evilanthropic.com", "*.nthropic.com"), host)).isFalse();
        assertThat(ProviderHost.reachable(List.of(), host)).isFalse();
        // object entries (request rules) by their host and ports
        assertThat(ProviderHost.reachable(List.of("{\"host\":\"api.anthropic.com\",\"methods\":[\"POST\"],"
                + "\"paths\":[\"/v1/\"]}"), host)).isTrue();
        assertThat(ProviderHost.reachable(List.of("{\"host\":\"*.anthropic.com\",\"ports\":[443,8443]}"), host))
                .isTrue();
        assertThat(ProviderHost.reachable(List.of("{\"host\":\"api.anthropic.com\",\"ports\":[8443]}"), host))
                .isFalse();
        assertThat(ProviderHost.reachable(List.of("{\"host\":\"anthropic.com\"}", "{\"host\": 42}", "{broken"),
                host)).isFalse();
    }
}
