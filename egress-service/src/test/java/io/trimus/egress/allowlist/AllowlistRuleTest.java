package io.trimus.egress.allowlist;

import io.trimus.commons.problem.ProblemException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** An entry may name a port after its host pattern; the host part is normalised and checked as before. */
class AllowlistRuleTest {

    @Test
    void aPortFollowsTheHostAndIsKeptInItsPlainForm() {
        assertThat(AllowlistService.normaliseAll(List.of("Git.Example.COM.:22", "*.DB.example.com:05432",
                "api.example.com", "api.example.com:443", " Bücher.example:8443 ", "x.example:65535",
                "y.example:1")))
                .containsExactly("*.db.example.com:5432", "api.example.com", "api.example.com:443",
                        "git.example.com:22", "x.example:65535", "xn--bcher-kva.example:8443", "y.example:1");
    }

    @Test
    void aStoredEntrySplitsIntoHostAndPort() {
        assertThat(AllowlistRule.ofNormalised("git.example.com:22"))
                .isEqualTo(new AllowlistRule("git.example.com", 22));
        assertThat(AllowlistRule.ofNormalised("*.example.com:5432").wildcard()).isTrue();
        assertThat(AllowlistRule.ofNormalised("api.example.com"))
                .isEqualTo(new AllowlistRule("api.example.com", AllowlistRule.ANY_DEFAULT_PORT));
        assertThat(AllowlistRule.ofNormalised("api.example.com").namesPort()).isFalse();
        assertThat(AllowlistRule.ofNormalised("*.example.com:22").text()).isEqualTo("*.example.com:22");
        assertThat(DomainNames.matches("*.example.com:22", "a.example.com")).isTrue();
        assertThat(DomainNames.matches("*.example.com:22", "example.com")).isFalse();
        assertThat(DomainNames.matches("git.example.com:22", "git.example.com")).isTrue();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"git.example.com:0", "git.example.com:65536", "git.example.com:99999",
            "git.example.com:123456", "git.example.com:", "git.example.com:ssh", "git.example.com:-22",
            "git.example.com:+22", "git.example.com:2 2", "git.example.com: 22",
            "git.example.com:٢٢", "*.example.com:0x16"})
    void aPortOutsideOneTo65535OrNotInDigitsIsRefusedNamingTheEntry(String entry) {
        ProblemException refused = refused(entry);

        assertThat(refused.field()).isEqualTo("entries[1]");
        assertThat(refused.value()).isEqualTo(entry);
        assertThat(refused.getMessage()).contains("port from 1 to 65535");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {":22", "*:22", "*.com:22", "exa mple.com:22", "[::1]:443", "1::2", "git.example.com:22:22", "https://example.com"})
    void theHostPartIsCheckedAsBefore(String entry) {
        ProblemException refused = refused(entry);

        assertThat(refused.field()).isEqualTo("entries[1]");
        assertThat(refused.getMessage()).doesNotContain("port from 1");
    }

    @Test
    void aWildcardWithAPortStillMayNotOpenAPublicSuffix() {
        assertThat(refused("*.co.uk:22").getMessage()).contains("public suffix co.uk");
    }

    private static ProblemException refused(String entry) {
        ProblemException refused = catchThrowableOfType(ProblemException.class,
                () -> AllowlistService.normaliseAll(List.of("api.example.com", entry)));
        assertThat(refused).as(entry).isNotNull();
        assertThat(refused.status()).isEqualTo(400);
        return refused;
    }
}
