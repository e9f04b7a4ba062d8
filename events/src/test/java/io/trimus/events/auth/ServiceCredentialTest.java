package io.trimus.events.auth;

import io.trimus.events.secrets.EncryptionKey;
import org.junit.jupiter.api.Test;

import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServiceCredentialTest {
    private static final String KEY_TEXT = "0ZYiVA65jN0PbtPYMjzQi2YZYakhmiYwPNuWoLT8Hlo=";
    private static final EncryptionKey KEY = EncryptionKey.parse(KEY_TEXT);
    private static final EncryptionKey OTHER = EncryptionKey.parse("zZAbhj6X9fTVJl/WgL9V6C5jl4i+ExbrDkNfVshyVDE=");

    @Test
    void theSameKeyGivesTheSameCredentialAndAnotherKeyAnother() {
        String presented = BearerCredentials.of(ServiceCredential.of(KEY).header()).orElseThrow();
        assertThat(presented).startsWith("svc_");
        assertThat(ServiceCredential.of(KEY).matches(presented)).isTrue();
        assertThat(ServiceCredential.of(OTHER).matches(presented)).isFalse();
        assertThat(ServiceCredential.of(KEY).matches(presented + "x")).isFalse();
        assertThat(ServiceCredential.of(KEY).matches(null)).isFalse();
    }

    @Test
    void itRevealsNeitherTheMasterKeyNorTheDispatchKey() {
        String presented = BearerCredentials.of(ServiceCredential.of(KEY).header()).orElseThrow();
        assertThat(presented).doesNotContain(KEY.dispatchKey().toHex())
                .doesNotContain(Base64.getUrlEncoder().withoutPadding().encodeToString(Base64.getDecoder()
                        .decode(KEY_TEXT)));
        assertThat(ServiceCredential.of(KEY).toString()).doesNotContain(presented.substring(4));
    }

    @Test
    void aWorkerIsGivenTheCredentialAsTextAndItMatchesTheDerivedOne() {
        String presented = BearerCredentials.of(ServiceCredential.of(KEY).header()).orElseThrow();
        // ./trimus service-credential (scripts/lib.sh) prints this value for this key
        assertThat(presented).isEqualTo("svc_58VZSnTxUIAKtFHd0EeMBuAQShmALhXIC5OZveEgNnQ");
        assertThat(ServiceCredential.parse(presented + "\n").matches(presented)).isTrue();
        assertThatThrownBy(() -> ServiceCredential.parse("svc_short")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("svc_short");
        assertThatThrownBy(() -> ServiceCredential.parse(presented.replace("svc_", "tok_")))
                .hasMessageContaining("TRIMUS_EGRESS_SERVICE_CREDENTIAL");
    }
}
