package io.trimus.egress.ca;

import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SecretBox;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.Base64;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A CA's private key as stored: sealed, bound to its CA, opened only with the key it was sealed under. */
class CaKeySealTest {
    static final EncryptionKey KEY = EncryptionKey.parse("zZAbhj6X9fTVJl/WgL9V6C5jl4i+ExbrDkNfVshyVDE=");
    static final EncryptionKey OTHER_KEY = EncryptionKey.parse(HexFormat.of().formatHex(new byte[]{
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
            30, 31, 32}));
    private static final String FINGERPRINT = "ab".repeat(32);

    @Test
    void aSealedKeyOpensToTheSameKey() {
        KeyPair keys = CaCertificates.newKeyPair();

        byte[] sealed = new CaKeySeal(KEY).seal(keys.getPrivate(), FINGERPRINT);

        assertThat(new CaKeySeal(KEY).open(sealed, FINGERPRINT).getEncoded()).isEqualTo(keys.getPrivate().getEncoded());
    }

    @Test
    void theSealedBytesHoldNoReadableKey() {
        KeyPair keys = CaCertificates.newKeyPair();

        byte[] sealed = new CaKeySeal(KEY).seal(keys.getPrivate(), FINGERPRINT);

        String asText = new String(sealed, StandardCharsets.ISO_8859_1);
        assertThat(asText).doesNotContain("PRIVATE KEY").doesNotContain("-----BEGIN")
                .doesNotContain(Base64.getEncoder().encodeToString(keys.getPrivate().getEncoded()).substring(0, 40));
        assertThat(indexOf(sealed, keys.getPrivate().getEncoded())).isNegative();
    }

    @Test
    void anotherKeyOrAnotherCaDoesNotOpenIt() {
        byte[] sealed = new CaKeySeal(KEY).seal(CaCertificates.newKeyPair().getPrivate(), FINGERPRINT);

        assertThatThrownBy(() -> new CaKeySeal(OTHER_KEY).open(sealed, FINGERPRINT))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThatThrownBy(() -> new CaKeySeal(KEY).open(sealed, "cd".repeat(32)))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        SecretBox otherPurpose = new SecretBox(KEY.derive("secrets-at-rest/v1"));
        assertThatThrownBy(() -> otherPurpose.open(sealed, "egress-ca/" + FINGERPRINT))
                .as("a key derived for another purpose").isInstanceOf(SecretBox.WrongKeyException.class);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
