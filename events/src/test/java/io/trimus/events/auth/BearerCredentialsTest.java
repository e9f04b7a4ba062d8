package io.trimus.events.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class BearerCredentialsTest {

    @Test
    void readsTheCredentialOfABearerHeaderInAnyCase() {
        assertThat(BearerCredentials.of("Bearer trimus_t_abc")).contains("trimus_t_abc");
        assertThat(BearerCredentials.of("bearer  trimus_t_abc ")).contains("trimus_t_abc");
        assertThat(BearerCredentials.header("x")).isEqualTo("Bearer x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Token abc", "Bearer a b", "Bearer ab\tc",
            "Bearer é"})
    void refusesWhatIsNoBearerCredential(String header) {
        assertThat(BearerCredentials.of(header)).isEmpty();
    }

    @Test
    void refusesAbsentAndOverlongHeadersWithoutReadingThem() {
        assertThat(BearerCredentials.of(null)).isEmpty();
        assertThat(BearerCredentials.of("Bearer " + "a".repeat(BearerCredentials.MAX_LENGTH))).isPresent();
        assertThat(BearerCredentials.of("Bearer " + "a".repeat(BearerCredentials.MAX_LENGTH + 1))).isEmpty();
    }
}
