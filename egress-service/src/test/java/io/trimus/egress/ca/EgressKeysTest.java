package io.trimus.egress.ca;

import io.trimus.commons.problem.ProblemException;
import io.trimus.events.secrets.EncryptionKey;
import io.smallrye.mutiny.Uni;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TRIMUS_ENCRYPTION_KEY in egress-service: read once, refused when malformed, and the CA's 503 without it. */
class EgressKeysTest {
    private static final String KEY_TEXT = "zZAbhj6X9fTVJl/WgL9V6C5jl4i+ExbrDkNfVshyVDE=";

    @Test
    void aKeyGivesTheDispatchKeyRunServiceDerives() {
        EgressKeys keys = new EgressKeys(Optional.of(KEY_TEXT));

        assertThat(keys.encryptionKey()).isPresent();
        assertThat(keys.dispatchKey()).contains(EncryptionKey.parse(KEY_TEXT).dispatchKey());
    }

    @Test
    void noKeyOrABlankOneIsNoKey() {
        assertThat(new EgressKeys(Optional.empty()).encryptionKey()).isEmpty();
        assertThat(new EgressKeys(Optional.of("  ")).dispatchKey()).isEmpty();
    }

    @Test
    void aMalformedKeyIsRefusedNamingTheVariableNeverTheKey() {
        String almost = KEY_TEXT.substring(0, 40);

        assertThatThrownBy(() -> new EgressKeys(Optional.of(almost)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TRIMUS_ENCRYPTION_KEY")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(almost));
    }

    @Test
    void withoutAKeyEveryCaCallFailsWith503NamingTheVariable() {
        EgressCaService service = new EgressCaService(new EgressKeys(Optional.empty()), null,
                new LeafPolicy(Duration.ofDays(7), 8), Clock.systemUTC(), null);

        for (Uni<?> call : List.of(service.current(), service.rotate(null), service.authorities(),
                service.byFingerprint("ab".repeat(32)))) {
            assertThatThrownBy(() -> call.await().atMost(Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.status()).isEqualTo(503))
                    .hasMessage("egress-service has no TRIMUS_ENCRYPTION_KEY: masked secrets and the egress CA"
                            + " need it");
        }
    }
}
