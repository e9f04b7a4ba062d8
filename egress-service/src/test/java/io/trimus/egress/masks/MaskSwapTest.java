package io.trimus.egress.masks;

import io.trimus.events.secrets.SandboxMask;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class MaskSwapTest {
    private static final SandboxMask GITHUB = new SandboxMask("GITHUB_TOKEN", "ghp_SURROGATEsurrogate0123456789abcd",
            "ghp_REALrealREALreal0123456789abcdefgh", List.of("*.github.com"), List.of("authorization"));
    private static final SandboxMask ANTHROPIC = new SandboxMask("ANTHROPIC_API_KEY", "sk-ant-SURROGATE000000000000",
            "sk-ant-REALVALUE11111111111", List.of("api.anthropic.com"), List.of("authorization", "x-api-key"));
    private static final RunMasks MASKS = new RunMasks(UUID.randomUUID(), List.of(GITHUB, ANTHROPIC), "f".repeat(64));

    private static List<Entry<String, String>> headers(String... pairs) {
        List<Entry<String, String>> list = new java.util.ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            list.add(Map.entry(pairs[i], pairs[i + 1]));
        }
        return list;
    }

    @Test
    void theSurrogateBecomesTheValueInAnAllowedHeaderOfAHostInScope() {
        MaskSwap.Outcome outcome = MaskSwap.apply("api.github.com", "/user",
                headers("Authorization", "token " + GITHUB.surrogate(), "Accept", "*/*"), MASKS);

        assertThat(outcome.allowed()).isTrue();
        assertThat(outcome.headers()).containsExactly(Map.entry("Authorization", "token " + GITHUB.value()),
                Map.entry("Accept", "*/*"));
        assertThat(outcome.swaps()).containsExactly(Map.entry("GITHUB_TOKEN", 1));
    }

    @Test
    void theSwapWorksInsideBasicCredentials() {
        String basic = Base64.getEncoder().encodeToString(("x-access-token:" + GITHUB.surrogate())
                .getBytes(StandardCharsets.UTF_8));

        MaskSwap.Outcome outcome = MaskSwap.apply("github.com.evil", "/", headers("Authorization", "Basic " + basic),
                new RunMasks(MASKS.runId(), List.of(ANTHROPIC), MASKS.caFingerprint()));
        MaskSwap.Outcome inScope = MaskSwap.apply("codeload.github.com", "/", headers("Authorization", "Basic " + basic),
                MASKS);

        assertThat(outcome.headers()).containsExactly(Map.entry("Authorization", "Basic " + basic));
        String sent = inScope.headers().get(0).getValue();
        assertThat(new String(Base64.getDecoder().decode(sent.substring(6)), StandardCharsets.UTF_8))
                .isEqualTo("x-access-token:" + GITHUB.value());
    }

    @Test
    void aCredentialThatIsNotTheSurrogateIsStrippedFromAHostInScope() {
        MaskSwap.Outcome outcome = MaskSwap.apply("api.anthropic.com", "/v1/messages",
                headers("x-api-key", "sk-ant-attackers-own-key", "Authorization", "Bearer sk-ant-other",
                        "Content-Type", "application/json"), MASKS);

        assertThat(outcome.allowed()).isTrue();
        assertThat(outcome.headers()).containsExactly(Map.entry("Content-Type", "application/json"));
        assertThat(outcome.swaps()).isEmpty();
    }

    @Test
    void aSurrogateSentOutsideItsScopeRefusesTheRequestWhereverItIs() {
        assertThat(MaskSwap.apply("api.github.com", "/", headers("x-api-key", ANTHROPIC.surrogate()), MASKS)
                .outOfScope()).isEqualTo("ANTHROPIC_API_KEY");
        assertThat(MaskSwap.apply("example.com", "/?token=" + GITHUB.surrogate(), headers(), MASKS).outOfScope())
                .isEqualTo("GITHUB_TOKEN");
        assertThat(MaskSwap.apply("example.com", "/", headers("X-Anything", "v=" + GITHUB.surrogate()), MASKS)
                .allowed()).isFalse();
        String basic = Base64.getEncoder().encodeToString(("u:" + GITHUB.surrogate()).getBytes(StandardCharsets.UTF_8));
        assertThat(MaskSwap.apply("example.com", "/", headers("Authorization", "basic " + basic), MASKS).allowed())
                .isFalse();
        String encoded = GITHUB.surrogate().substring(0, 4) + "%" + Integer.toHexString(GITHUB.surrogate().charAt(4))
                + GITHUB.surrogate().substring(5);
        assertThat(MaskSwap.apply("example.com", "/?t=" + encoded, headers(), MASKS).allowed()).isFalse();
    }

    @Test
    void aSurrogateInAHeaderItMayNotRideInStaysASurrogateAndProxyAuthorizationIsNeverForwarded() {
        MaskSwap.Outcome outcome = MaskSwap.apply("api.github.com", "/",
                headers("X-Token", GITHUB.surrogate(), "Proxy-Authorization", "Basic abc"), MASKS);

        assertThat(outcome.headers()).containsExactly(Map.entry("X-Token", GITHUB.surrogate()));
        assertThat(outcome.swaps()).isEmpty();
    }

    @Test
    void aRequestWithoutMaskedSecretsToAnotherHostIsUntouched() {
        List<Entry<String, String>> sent = headers("Authorization", "Bearer mine", "Accept", "*/*");

        MaskSwap.Outcome outcome = MaskSwap.apply("example.com", "/", sent, MASKS);

        assertThat(outcome.headers()).isEqualTo(sent);
    }
}
