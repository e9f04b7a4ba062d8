package io.trimus.events.secrets;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The dispatch key is what workers hold: derived one-way from the master key, and never a way back to it. */
class DispatchKeyTest {

    private static String randomKeyText() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    @Test
    void derivedDispatchKeyIsWhatAWorkerIsGivenAndSealsTheSame() {
        EncryptionKey master = EncryptionKey.parse(randomKeyText());
        DispatchKey asGiven = DispatchKey.parse(master.dispatchKey().toHex());

        assertThat(asGiven).isEqualTo(master.dispatchKey());
        assertThat(DispatchKey.configured(Optional.empty(), Optional.of(randomKeyText()))).isPresent();
        assertThat(DispatchKey.configured(Optional.empty(), Optional.empty())).isEmpty();
    }

    @Test
    void theDispatchKeyIsNeitherTheMasterKeyNorTheAtRestKey() {
        EncryptionKey master = EncryptionKey.parse(randomKeyText());
        String dispatch = master.dispatchKey().toHex();
        byte[] atRest = master.derive("secrets-at-rest/v1").getEncoded();

        // a worker holding the dispatch key: whatever it derives, the at-rest key is not among its purposes' keys
        DispatchKey worker = DispatchKey.parse(dispatch);
        assertThat(worker.derive("secrets-at-rest/v1", "AES").getEncoded()).isNotEqualTo(atRest);
        assertThat(EncryptionKey.parse(dispatch).derive("secrets-at-rest/v1").getEncoded()).isNotEqualTo(atRest);
        // a secret stored at rest does not open under anything the dispatch key yields
        byte[] stored = new SecretBox(master.derive("secrets-at-rest/v1")).seal("v4lue", "company:c/secret:K");
        assertThatThrownBy(() -> new SecretBox(worker.derive("dispatch-secrets/v2", "AES")).open(stored,
                "company:c/secret:K")).isInstanceOf(SecretBox.WrongKeyException.class);
    }

    @Test
    void aDispatchKeyThatIsNotTheMastersIsRefused() {
        assertThatThrownBy(() -> DispatchKey.configured(Optional.of(randomKeyText()), Optional.of(randomKeyText())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(DispatchKey.ENV);
        assertThatThrownBy(() -> DispatchKey.parse("short")).hasMessageContaining(DispatchKey.ENV)
                .hasMessageNotContaining("short");
    }
}
