package io.trimus.egress.masks;

import io.trimus.events.secrets.SandboxMask;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** What a scoped host echoes comes back with the surrogate, however the reads cut it, and nothing else changes. */
class EchoSwapTest {
    private static final SandboxMask GITHUB = new SandboxMask("GITHUB_TOKEN", "ghp_SURROGATEsurrogate0123456789abcd",
            "ghp_REALrealREALreal0123456789abcdef", List.of("api.github.com"), List.of("authorization"));
    private static final RunMasks MASKS = new RunMasks(UUID.randomUUID(), List.of(GITHUB), "f".repeat(64));

    @Test
    void aValueCutAcrossTwoReadsAnywhereComesBackAsTheSurrogate() {
        String body = "{\"echo\":\"Bearer " + GITHUB.value() + "\",\"again\":\"" + GITHUB.value() + "\"}";
        String expected = body.replace(GITHUB.value(), GITHUB.surrogate());
        for (int cut = 0; cut <= body.length(); cut++) {
            EchoSwap.Stream stream = EchoSwap.of(MASKS, Map.of()).stream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(stream.feed(body.substring(0, cut).getBytes(StandardCharsets.UTF_8)));
            out.writeBytes(stream.feed(body.substring(cut).getBytes(StandardCharsets.UTF_8)));
            out.writeBytes(stream.finish());

            assertThat(out.toString(StandardCharsets.UTF_8)).as("cut at %d", cut).isEqualTo(expected);
        }
    }

    @Test
    void onlyATailThatCouldBeginAValueWaitsForTheNextRead() {
        EchoSwap.Stream stream = EchoSwap.of(MASKS, Map.of()).stream();

        assertThat(new String(stream.feed("data: first\n\n".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("data: first\n\n");
        assertThat(new String(stream.feed("token ghp_RE".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("token ");
        assertThat(new String(stream.feed("D, not it".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("ghp_RED, not it");
        assertThat(new String(stream.feed("ghp_".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEmpty();
        assertThat(new String(stream.finish(), StandardCharsets.UTF_8)).isEqualTo("ghp_");
    }

    @Test
    void theEncodedCredentialARequestCarriedComesBackAsTheOneTheSandboxSent() {
        String sent = Base64.getEncoder().encodeToString(("x-access-token:" + GITHUB.value())
                .getBytes(StandardCharsets.UTF_8));
        String sandboxes = Base64.getEncoder().encodeToString(("x-access-token:" + GITHUB.surrogate())
                .getBytes(StandardCharsets.UTF_8));
        EchoSwap echo = EchoSwap.of(MASKS, Map.of(sent, sandboxes));

        assertThat(echo.apply("Basic " + sent)).isEqualTo("Basic " + sandboxes);
        assertThat(echo.apply("Bearer " + GITHUB.value())).isEqualTo("Bearer " + GITHUB.surrogate());
        assertThat(echo.apply("nothing to see")).isEqualTo("nothing to see");
        assertThat(echo.changesLength()).isFalse();
    }

    @Test
    void aSurrogateOfAnotherLengthIsSwappedAndSaysTheLengthChanges() {
        SandboxMask odd = new SandboxMask("ODD", "short-surrogate", "a-much-longer-real-value", List.of("x.test"),
                List.of("authorization"));
        EchoSwap echo = EchoSwap.of(new RunMasks(UUID.randomUUID(), List.of(odd), "f".repeat(64)), Map.of());

        assertThat(echo.changesLength()).isTrue();
        assertThat(echo.apply("key=a-much-longer-real-value;")).isEqualTo("key=short-surrogate;");
    }
}
