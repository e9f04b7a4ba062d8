package io.trimus.events.secrets;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Secrets in a run request are ciphertext bound to their company, agent, run and name, opened only with the same key. */
class DispatchSecretsTest {
    private static final String VALUE = "sk-live-0123456789";
    private static final UUID COMPANY = UUID.randomUUID();
    private static final UUID AGENT = UUID.randomUUID();

    static DispatchKey randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return DispatchKey.parse(Base64.getEncoder().encodeToString(key));
    }

    @Test
    void sealedValuesOpenForTheirRunWithTheSameKey() {
        DispatchKey key = randomKey();
        UUID run = UUID.randomUUID();

        Map<String, String> sealed = new DispatchSecrets(key).seal(COMPANY, AGENT, run,
                Map.of("ANTHROPIC_API_KEY", VALUE));

        assertThat(sealed.get("ANTHROPIC_API_KEY")).doesNotContain(VALUE);
        assertThat(new String(Base64.getDecoder().decode(sealed.get("ANTHROPIC_API_KEY")), StandardCharsets.ISO_8859_1))
                .doesNotContain(VALUE);
        assertThat(new DispatchSecrets(key).open(COMPANY, AGENT, run, sealed))
                .containsExactly(Map.entry("ANTHROPIC_API_KEY", VALUE));
    }

    @Test
    void anotherKeyCompanyAgentRunOrNameDoesNotOpen() {
        DispatchKey key = randomKey();
        UUID run = UUID.randomUUID();
        DispatchSecrets dispatch = new DispatchSecrets(key);
        Map<String, String> sealed = dispatch.seal(COMPANY, AGENT, run, Map.of("ANTHROPIC_API_KEY", VALUE));

        assertThatThrownBy(() -> new DispatchSecrets(randomKey()).open(COMPANY, AGENT, run, sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> dispatch.open(UUID.randomUUID(), AGENT, run, sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> dispatch.open(COMPANY, UUID.randomUUID(), run, sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> dispatch.open(COMPANY, AGENT, UUID.randomUUID(), sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> dispatch.open(COMPANY, AGENT, run,
                Map.of("OPENAI_API_KEY", sealed.get("ANTHROPIC_API_KEY"))))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> dispatch.open(COMPANY, AGENT, run, Map.of("ANTHROPIC_API_KEY", "not base64!")))
                .isInstanceOf(SecretBox.WrongKeyException.class);
    }

    @Test
    void theSameValueSealsDifferentlyEachTime() {
        DispatchKey key = randomKey();
        UUID run = UUID.randomUUID();

        assertThat(new DispatchSecrets(key).seal(COMPANY, AGENT, run, Map.of("K", VALUE)))
                .isNotEqualTo(new DispatchSecrets(key).seal(COMPANY, AGENT, run, Map.of("K", VALUE)));
    }
}
