package io.trimus.events.secrets;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Secret values never survive redaction: whole, overlapping, or cut at the edges of an output tail. */
class RedactorTest {
    private static final String KEY = "sk-ant-api03-abcdefghijklmnop";

    @Test
    void everyOccurrenceIsMasked() {
        String out = Redactor.of(List.of(KEY)).redact("key=" + KEY + "\nagain " + KEY + " end");

        assertThat(out).isEqualTo("key=[REDACTED]\nagain [REDACTED] end").doesNotContain(KEY);
    }

    @Test
    void aSecretCutByTheTailAtEitherEdgeIsMasked() {
        Redactor redactor = Redactor.of(List.of(KEY));

        assertThat(redactor.redact(KEY.substring(9) + " rest of the log")).isEqualTo("[REDACTED] rest of the log");
        assertThat(redactor.redact("log ends with " + KEY.substring(0, 12))).isEqualTo("log ends with [REDACTED]");
    }

    @Test
    void aLongerSecretContainingAShorterOneIsMaskedWhole() {
        String out = Redactor.of(List.of("abcd", "xxabcdxx")).redact("1 xxabcdxx 2 abcd");

        assertThat(out).isEqualTo("1 [REDACTED] 2 [REDACTED]");
    }

    @Test
    void tooShortValuesAndNullsChangeNothing() {
        Redactor redactor = Redactor.of(Arrays.asList("abc", null, ""));

        assertThat(redactor.redact("abc abc")).isEqualTo("abc abc");
        assertThat(redactor.redact(null)).isNull();
        assertThat(Redactor.none().redact(KEY)).isEqualTo(KEY);
    }

    @Test
    void aSurrogateShowsItsSecretsNameAndARealValueStaysRedacted() {
        String surrogate = "sk-ant-api03-qwertyuiopasdfgh";
        Redactor redactor = Redactor.of(List.of(KEY)).withMarks(Map.of(surrogate, Redactor.maskedMark("ANTHROPIC_API_KEY")));

        assertThat(redactor.redact("env " + surrogate + " real " + KEY))
                .isEqualTo("env [MASKED:ANTHROPIC_API_KEY] real [REDACTED]");
    }

    @Test
    void aSurrogateCutByTheTailAtEitherEdgeShowsItsMark() {
        String surrogate = "ghp_Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1";
        Redactor redactor = Redactor.none().withMarks(Map.of(surrogate, "[MASKED:GITHUB_TOKEN]"));

        assertThat(redactor.redact(surrogate.substring(7) + " rest")).isEqualTo("[MASKED:GITHUB_TOKEN] rest");
        assertThat(redactor.redact("ends " + surrogate.substring(0, 10))).isEqualTo("ends [MASKED:GITHUB_TOKEN]");
        assertThat(redactor.redact("abc")).isEqualTo("abc");
    }
}
