package io.trimus.run.service.secret;

import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SecretBox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Proves, without Quarkus, that a stored secret opens only under the key, company and name it was written for, that a
 * dispatch seal opens only for its run, and that TRIMUS_ENCRYPTION_KEY is refused when missing, short, not base64/hex
 * or weak, with a message that never repeats the key.
 */
class SecretCipherTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final UUID COMPANY = UUID.randomUUID();

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static EncryptionKey randomKey() {
        return EncryptionKey.parse(Base64.getEncoder().encodeToString(randomBytes(32)));
    }

    @Test
    void aSecretRoundTripsUnderTheSameKey() {
        EncryptionKey key = randomKey();
        byte[] stored = new SecretCipher(key).encrypt(COMPANY, "ANTHROPIC_API_KEY", "sk-ant-äöü-123");
        // another instance with the same key: nothing but the key is needed to read it back
        assertThat(new SecretCipher(key).decrypt(COMPANY, "ANTHROPIC_API_KEY", stored)).isEqualTo("sk-ant-äöü-123");
    }

    @Test
    void theSameValueEncryptsDifferentlyEachTime() {
        SecretCipher cipher = new SecretCipher(randomKey());
        byte[] first = cipher.encrypt(COMPANY, "K", "same value");
        byte[] second = cipher.encrypt(COMPANY, "K", "same value");
        assertThat(first).isNotEqualTo(second);
        assertThat(new String(first, StandardCharsets.ISO_8859_1)).doesNotContain("same value");
    }

    @Test
    void anotherKeyCannotDecrypt() {
        byte[] stored = new SecretCipher(randomKey()).encrypt(COMPANY, "ANTHROPIC_API_KEY", "sk-ant-secret");
        assertThatThrownBy(() -> new SecretCipher(randomKey()).decrypt(COMPANY, "ANTHROPIC_API_KEY", stored))
                .isInstanceOf(SecretBox.WrongKeyException.class)
                .hasMessageNotContaining("sk-ant-secret");
    }

    @Test
    void ciphertextMovedToAnotherCompanyOrNameDoesNotDecrypt() {
        SecretCipher cipher = new SecretCipher(randomKey());
        byte[] stored = cipher.encrypt(COMPANY, "ANTHROPIC_API_KEY", "sk-ant-secret");
        assertThatThrownBy(() -> cipher.decrypt(UUID.randomUUID(), "ANTHROPIC_API_KEY", stored))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> cipher.decrypt(COMPANY, "OPENAI_API_KEY", stored))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThat(cipher.decrypt(COMPANY, "ANTHROPIC_API_KEY", stored)).isEqualTo("sk-ant-secret");
    }

    @Test
    void alteredOrTruncatedCiphertextDoesNotDecrypt() {
        SecretCipher cipher = new SecretCipher(randomKey());
        byte[] stored = cipher.encrypt(COMPANY, "K", "sk-ant-secret");
        byte[] flipped = stored.clone();
        flipped[flipped.length / 2] ^= 1;
        assertThatThrownBy(() -> cipher.decrypt(COMPANY, "K", flipped)).isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> cipher.decrypt(COMPANY, "K", Arrays.copyOf(stored, 20)))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> cipher.decrypt(COMPANY, "K", null)).isInstanceOf(SecretBox.WrongKeyException.class);
    }

    @Test
    void aDispatchSealOpensOnlyForItsCompanyAgentRunAndKeyAndNotAsAStoredSecret() {
        EncryptionKey key = randomKey();
        SecretCipher cipher = new SecretCipher(key);
        UUID agent = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        Map<String, String> sealed = cipher.sealForDispatch(COMPANY, agent, run,
                Map.of("ANTHROPIC_API_KEY", "sk-ant-secret"));
        DispatchSecrets worker = new DispatchSecrets(key.dispatchKey());

        assertThat(sealed.get("ANTHROPIC_API_KEY")).doesNotContain("sk-ant-secret");
        assertThat(worker.open(COMPANY, agent, run, sealed)).containsExactly(Map.entry("ANTHROPIC_API_KEY",
                "sk-ant-secret"));
        assertThatThrownBy(() -> worker.open(COMPANY, agent, UUID.randomUUID(), sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> worker.open(COMPANY, UUID.randomUUID(), run, sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> worker.open(UUID.randomUUID(), agent, run, sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> new DispatchSecrets(randomKey().dispatchKey()).open(COMPANY, agent, run, sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        // renamed to another variable: does not open either
        assertThatThrownBy(() -> worker.open(COMPANY, agent, run,
                Map.of("OPENAI_API_KEY", sealed.get("ANTHROPIC_API_KEY"))))
                .isInstanceOf(SecretBox.WrongKeyException.class);
    }

    @Test
    void aKeyIsAcceptedAsBase64AsHexAndWithSurroundingWhitespace() {
        byte[] raw = randomBytes(32);
        byte[] stored = new SecretCipher(EncryptionKey.parse(Base64.getEncoder().encodeToString(raw)))
                .encrypt(COMPANY, "K", "v4lue");
        // the same 32 bytes written three ways are the same key
        for (String written : new String[]{HexFormat.of().formatHex(raw), HexFormat.of().withUpperCase().formatHex(raw),
                " " + Base64.getEncoder().encodeToString(raw) + "\n", Base64.getUrlEncoder().encodeToString(raw)}) {
            assertThat(new SecretCipher(EncryptionKey.parse(written)).decrypt(COMPANY, "K", stored)).isEqualTo("v4lue");
        }
        assertThat(EncryptionKey.parse(HexFormat.of().formatHex(raw)).toString())
                .doesNotContain(HexFormat.of().formatHex(raw));
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> badKeys() {
        byte[] oneValue = new byte[32];
        Arrays.fill(oneValue, (byte) 0x41);
        byte[] twoValues = new byte[32];
        for (int i = 0; i < 32; i++) {
            twoValues[i] = (byte) (i % 2 == 0 ? 7 : 9);
        }
        return Stream.of(
                arguments("null", null, "not set"),
                arguments("empty", "", "not set"),
                arguments("blank", "   \t", "not set"),
                arguments("16 bytes", Base64.getEncoder().encodeToString(randomBytes(16)), "32 bytes"),
                arguments("33 bytes", Base64.getEncoder().encodeToString(randomBytes(33)), "32 bytes"),
                arguments("63 hex digits", HexFormat.of().formatHex(randomBytes(32)).substring(1), "32 bytes"),
                arguments("not base64", "this is not a key, it is a passphrase!", "32 bytes"),
                arguments("a password", "correct horse battery staple", "32 bytes"),
                arguments("one byte value", Base64.getEncoder().encodeToString(oneValue), "weak"),
                arguments("one byte value in hex", "00".repeat(32), "weak"),
                arguments("two byte values", Base64.getEncoder().encodeToString(twoValues), "weak"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badKeys")
    void aBadKeyIsRefusedWithASentenceThatNeverContainsIt(String description, String key, String reason) {
        assertThatThrownBy(() -> EncryptionKey.parse(key))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(EncryptionKey.ENV)
                .hasMessageContaining(reason)
                .satisfies(e -> {
                    if (key != null && !key.isBlank()) {
                        assertThat(e.getMessage()).doesNotContain(key.strip());
                        assertThat(e.getCause()).isNull();
                    }
                });
    }
}
