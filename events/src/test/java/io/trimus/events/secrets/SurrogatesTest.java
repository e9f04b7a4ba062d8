package io.trimus.events.secrets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.security.SecureRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A surrogate looks like the real key (prefix, length, character classes) and shares nothing else with it. */
class SurrogatesTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "anthropic, sk-ant-api03-Xk9vQ2mLp7RtY4wZ8nB3cD6fG1hJ5kL0qW2eR4tY6uI8oP0aS2dF4gH6jK8lZ0xC2vB4nM6-Ab1_Cd2, sk-ant-api03-",
            "openai project, sk-proj-Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6Kl9No2Qr5Tu8Wx1Za4Cd7Fg0Ij3, sk-proj-",
            "openai legacy, sk-Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6Kl9No2Qr5, sk-",
            "github classic, ghp_Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6, ghp_",
            "github fine-grained, github_pat_11ABCDEFG0abcdefghijkl_MnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123, github_pat_",
            "slack bot, xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx, xoxb-123456789012-",
            "gitlab, glpat-Ab3De6Gh9Jk2Mn5Pq8St, glpat-"})
    void aRealLookingKeyKeepsItsPrefixLengthAndCharacterClasses(String kind, String value, String prefix) {
        String surrogate = Surrogates.of(value, RANDOM);

        assertThat(surrogate).as(kind).isNotEqualTo(value).hasSameSizeAs(value).startsWith(prefix);
        for (int i = 0; i < value.length(); i++) {
            assertThat(classOf(surrogate.charAt(i))).as(kind + " at " + i).isEqualTo(classOf(value.charAt(i)));
            if (classOf(value.charAt(i)) == 'o') {
                assertThat(surrogate.charAt(i)).as(kind + " keeps punctuation at " + i).isEqualTo(value.charAt(i));
            }
        }
        assertThat(Surrogates.prefixLength(value)).as(kind).isEqualTo(prefix.length());
    }

    @Test
    void twoSurrogatesOfOneValueDiffer() {
        String value = "sk-ant-api03-Xk9vQ2mLp7RtY4wZ8nB3cD6fG1hJ5kL0";

        assertThat(Surrogates.of(value, RANDOM)).isNotEqualTo(Surrogates.of(value, RANDOM));
    }

    @Test
    void aShortValueStillGetsTwelveRandomCharacters() {
        for (String value : new String[] {"ghp_abcdefghijkl", "sk-ant-abcdefghi", "a-b-c-d-e-fghijklmnopq", "abcdefghijklmnop"}) {
            String surrogate = Surrogates.of(value, RANDOM);
            int prefix = Surrogates.prefixLength(value);
            long random = value.substring(prefix).chars().filter(Character::isLetterOrDigit).count();

            assertThat(random).as(value).isGreaterThanOrEqualTo(12);
            assertThat(surrogate).hasSameSizeAs(value).isNotEqualTo(value);
        }
        assertThat(Surrogates.prefixLength("sk-ant-abcdefghi")).isEqualTo("sk-".length());
    }

    @Test
    void aValueShorterThanTwelveIsRandomisedWhole() {
        assertThat(Surrogates.prefixLength("sk-abc")).isZero();
        assertThat(Surrogates.of("sk-abc", RANDOM)).hasSize(6).matches("[a-z]{2}-[a-z]{3}");
    }

    @Test
    void aValueWithoutLettersOrDigitsIsRefusedWithoutQuotingIt() {
        assertThatThrownBy(() -> Surrogates.of("-_-_.", RANDOM)).isInstanceOf(IllegalArgumentException.class)
                .message().doesNotContain("-_-_.");
    }

    private static char classOf(char c) {
        if (c >= 'a' && c <= 'z') {
            return 'l';
        }
        if (c >= 'A' && c <= 'Z') {
            return 'u';
        }
        if (c >= '0' && c <= '9') {
            return 'd';
        }
        return 'o';
    }
}
