package io.trimus.events;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.trimus.events.OutputTail.TRUNCATED_MARKER;
import static org.assertj.core.api.Assertions.assertThat;

/** The output cap keeps the end of a log, stays within its byte budget and never breaks a character. */
class OutputTailTest {
    private static final int MARKER_BYTES = utf8(TRUNCATED_MARKER);

    @Test
    void shortOutputIsKeptAsItIs() {
        assertThat(OutputTail.of("hello\n", 100)).isEqualTo("hello\n");
        assertThat(OutputTail.of("", 100)).isEmpty();
    }

    @Test
    void outputOfExactlyTheBudgetIsKeptAsItIs() {
        String text = "ä".repeat(50);

        assertThat(OutputTail.of(text, 100)).isEqualTo(text);
    }

    @Test
    void noOutputStaysNoOutput() {
        assertThat(OutputTail.of(null, 100)).isNull();
    }

    @Test
    void longOutputKeepsItsEndBehindTheMarker() {
        String log = "line\n".repeat(1_000) + "FAILED: assertion in step 7\n";

        String tail = OutputTail.of(log, 200);

        assertThat(tail).startsWith(TRUNCATED_MARKER).endsWith("FAILED: assertion in step 7\n");
        assertThat(log).endsWith(tail.substring(TRUNCATED_MARKER.length()));
        assertThat(utf8(tail)).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"😀", "ä", "€", "a😀ü"})
    void aCutNeverSplitsACharacter(String unit) {
        String text = unit.repeat(300);
        for (int maxBytes = MARKER_BYTES + 1; maxBytes <= MARKER_BYTES + 40; maxBytes++) {
            String tail = OutputTail.of(text, maxBytes);

            String kept = tail.substring(TRUNCATED_MARKER.length());
            assertThat(tail).as("cap %d", maxBytes).startsWith(TRUNCATED_MARKER).doesNotContain("\uFFFD");
            assertThat(text).as("cap %d", maxBytes).endsWith(kept);
            assertThat(utf8(tail)).as("cap %d", maxBytes).isLessThanOrEqualTo(maxBytes)
                    .isGreaterThan(maxBytes - 4); // at most one character given up at the cut
            assertThat(Character.isLowSurrogate(kept.isEmpty() ? 'x' : kept.charAt(0))).as("cap %d", maxBytes)
                    .isFalse();
        }
    }

    @Test
    void aBudgetTooSmallForTheMarkerStillHoldsTheCap() {
        String tail = OutputTail.of("x".repeat(100) + "END", 10);

        assertThat(utf8(tail)).isLessThanOrEqualTo(10);
        assertThat(tail).endsWith("END");
    }

    @Test
    void rawBytesAreCutLikeText() {
        byte[] bytes = ("ü".repeat(100) + "done\n").getBytes(StandardCharsets.UTF_8);

        String tail = OutputTail.of(bytes, bytes.length, 64);

        assertThat(tail).startsWith(TRUNCATED_MARKER).endsWith("üdone\n").doesNotContain("\uFFFD");
        assertThat(utf8(tail)).isLessThanOrEqualTo(64);
    }

    @Test
    void rawBytesBeyondTheLengthAreIgnored() {
        byte[] buffer = Arrays.copyOf("ok\n".getBytes(StandardCharsets.UTF_8), 4096);

        assertThat(OutputTail.of(buffer, 3, 100)).isEqualTo("ok\n");
    }

    @Test
    void invalidUtf8StillFitsTheBudget() {
        // every invalid byte decodes to U+FFFD, three bytes: the cap must hold after decoding
        byte[] binary = new byte[100];
        Arrays.fill(binary, (byte) 0xFF);
        byte[] shortBinary = Arrays.copyOf(binary, 40);
        byte[] cutInsideEmoji = Arrays.copyOf("x".repeat(60).getBytes(StandardCharsets.UTF_8), 61);
        cutInsideEmoji[60] = (byte) 0xF0; // first byte of a 4-byte character, the rest never came

        assertThat(utf8(OutputTail.of(binary, binary.length, 60))).isLessThanOrEqualTo(60);
        assertThat(utf8(OutputTail.of(shortBinary, shortBinary.length, 60))).isLessThanOrEqualTo(60);
        assertThat(utf8(OutputTail.of(cutInsideEmoji, cutInsideEmoji.length, 61))).isLessThanOrEqualTo(61);
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
