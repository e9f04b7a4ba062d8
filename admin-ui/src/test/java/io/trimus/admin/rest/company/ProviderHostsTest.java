package io.trimus.admin.rest.company;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The provider-host warning of a sandboxed CLI agent in the words the company page uses. */
class ProviderHostsTest {

    @Test
    void theProviderHostMustBeCoveredOn443() {
        assertThat(ProviderHosts.warning("claude_sandbox", List.of("api.github.com"))).get().asString()
                .startsWith("api.anthropic.com is not on this company's allowlist: Claude Code");
        assertThat(ProviderHosts.warning("codex_sandbox", List.of())).get().asString().startsWith("api.openai.com ");
        assertThat(ProviderHosts.warning("claude_sandbox", List.of("api.anthropic.com"))).isEmpty();
        assertThat(ProviderHosts.warning("claude_sandbox", List.of("*.anthropic.com"))).isEmpty();
        assertThat(ProviderHosts.warning("claude_sandbox", List.of("API.Anthropic.com."))).isEmpty();
        assertThat(ProviderHosts.warning("claude_sandbox", List.of("api.anthropic.com:443"))).isEmpty();
        assertThat(ProviderHosts.warning("claude_sandbox", List.of("api.anthropic.com:8443"))).isPresent();
        assertThat(ProviderHosts.warning("claude_sandbox", List.of("*.api.anthropic.com"))).isPresent();
        assertThat(ProviderHosts.warning("claude_sandbox", List.of("anthropic.com"))).isPresent();
        assertThat(ProviderHosts.warning("claude_sandbox", List.of(
                "{\"host\":\"api.anthropic.com\",\"methods\":[\"POST\"],\"paths\":[\"/v1/\"]}"))).isEmpty();
        assertThat(ProviderHosts.warning("claude_sandbox",
                List.of("{\"host\":\"api.anthropic.com\",\"ports\":[8443]}"))).isPresent();
        assertThat(ProviderHosts.warning("docker", List.of())).isEmpty();
        assertThat(ProviderHosts.warning(null, List.of())).isEmpty();
    }
}
