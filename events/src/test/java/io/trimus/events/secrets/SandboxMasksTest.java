package io.trimus.events.secrets;

import io.trimus.events.MaskScope;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SandboxMasksTest {
    private static final DispatchKey KEY = EncryptionKey.parse("3f8a1c2b9d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a").dispatchKey();
    private static final SandboxMask MASK = new SandboxMask("GITHUB_TOKEN", "ghp_surrogate", "ghp_real", List.of(
            "*.github.com"), List.of("authorization"));

    @Test
    void masksOpenForTheRunAndAddressTheyWereSealedFor() {
        UUID run = UUID.randomUUID();
        String sealed = new SandboxMasks(KEY).seal(run, "10.0.0.5", List.of(MASK));

        assertThat(sealed).doesNotContain("ghp_real");
        assertThat(new SandboxMasks(KEY).open(run, "10.0.0.5", sealed)).containsExactly(MASK);
        assertThatThrownBy(() -> new SandboxMasks(KEY).open(UUID.randomUUID(), "10.0.0.5", sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> new SandboxMasks(KEY).open(run, "10.0.0.6", sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> new SandboxMasks(KEY).open(run, "10.0.0.5", "not base64!"))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThat(MASK.toString()).doesNotContain("ghp_");
    }

    @Test
    void aScopeCoversExactHostsAndSubdomainsOfWildcards() {
        MaskScope scope = new MaskScope("S", List.of("api.anthropic.com", "*.github.com"), null);

        assertThat(scope.covers("api.anthropic.com")).isTrue();
        assertThat(scope.covers("x.api.anthropic.com")).isFalse();
        assertThat(scope.covers("api.github.com")).isTrue();
        assertThat(scope.covers("github.com")).isFalse();
        assertThat(scope.covers("evilgithub.com")).isFalse();
        assertThat(scope.headers()).containsExactly("authorization", "x-api-key");
        assertThat(scope.allowsHeader("X-Api-Key")).isTrue();
        assertThat(scope.allowsHeader("Proxy-Authorization")).isFalse();
    }
}
