package io.trimus.events.secrets;

import io.trimus.events.MaskScope;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MaskHostsTest {

    @Test
    void namesAndWildcardsAreNormalisedLikeAllowlistEntries() {
        assertThat(MaskHosts.normalize("API.Anthropic.com")).isEqualTo("api.anthropic.com");
        assertThat(MaskHosts.normalize(" api.github.com. ")).isEqualTo("api.github.com");
        assertThat(MaskHosts.normalize("*.GitHub.com")).isEqualTo("*.github.com");
        assertThat(MaskHosts.normalize("bücher.example")).isEqualTo("xn--bcher-kva.example");
        assertThat(MaskHosts.normalize("localhost")).isEqualTo("localhost");
        assertThat(MaskHosts.normalize("a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "."
                + "d".repeat(61))).hasSize(253);
    }

    @Test
    void anythingThatIsNotAHostNameOrWildcardIsRefusedWithAReason() {
        for (String[] refused : List.of(
                new String[]{null, "not null"},
                new String[]{"", "is not"},
                new String[]{"*", "every host"},
                new String[]{"*.", "every host"},
                new String[]{"*.com", "top-level"},
                new String[]{"https://api.github.com", "URL"},
                new String[]{"api.github.com:443", "port"},
                new String[]{"10.0.0.1", "IP address"},
                new String[]{"169.254.169.254", "IP address"},
                new String[]{"*.10.0.0", "IP address"},
                new String[]{"1.2.3.0x4", "IP address"},
                new String[]{"::1", "IP address"},
                new String[]{"[2001:db8::1]", "IP address"},
                new String[]{"api.*.github.com", "is not"},
                new String[]{"api..github.com", "is not"},
                new String[]{"-api.github.com", "is not"},
                new String[]{"api github.com", "is not"},
                new String[]{"api.github.com/path", "is not"},
                new String[]{"a".repeat(64) + ".example", "is not"},
                new String[]{"a".repeat(250) + ".com", "longer than 253"})) {
            assertThatThrownBy(() -> MaskHosts.normalize(refused[0])).as(refused[0])
                    .isInstanceOf(MaskHosts.InvalidHost.class).hasMessageContaining(refused[1]);
        }
    }

    @Test
    void normalisedEntriesMatchAsTheScopeMatchesHosts() {
        MaskScope scope = new MaskScope("GITHUB_TOKEN", List.of(MaskHosts.normalize("*.GitHub.com"),
                MaskHosts.normalize("API.anthropic.com.")), null);
        assertThat(scope.covers("api.github.com")).isTrue();
        assertThat(scope.covers("github.com")).isFalse();
        assertThat(scope.covers("api.anthropic.com")).isTrue();
        assertThat(scope.covers("evil-github.com")).isFalse();
    }
}
