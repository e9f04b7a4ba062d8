package io.trimus.egress.allowlist;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class DomainNamesTest {

    @Test
    void plainAsciiNamesTakeTheFastPathWithTheSameResult() {
        assertThat(DomainNames.plainHostName("API.GitHub.com.")).isEqualTo("api.github.com");
        assertThat(DomainNames.plainHostName("a0001.allowed.test")).isEqualTo("a0001.allowed.test");
        assertThat(DomainNames.plainHostName("_dmarc.x-y.example")).isEqualTo("_dmarc.x-y.example");
        assertThat(DomainNames.plainHostName("xn--bcher-kva.example")).isEqualTo("xn--bcher-kva.example");
        for (String notPlain : List.of("", ".", "a..b", "-a.example", "a-.example", "a b.example", "bücher.example",
                "a\\.b.example", "*.example", "a.example..", "a".repeat(64) + ".example")) {
            assertThat(DomainNames.plainHostName(notPlain)).as(notPlain).isNull();
        }
        assertThat(DomainNames.plainHostName("a".repeat(63) + ".example")).isNotNull();
    }

    @Test
    void fastPathAgreesWithTheIdnPathOnAnything() {
        Random random = new Random(20261129);
        String alphabet = "abcXYZ09-_..-aé*\\ 。";
        List<String> names = new ArrayList<>(List.of(
                label(63) + "." + label(63) + "." + label(63) + "." + label(61),        // 253
                label(63) + "." + label(63) + "." + label(63) + "." + label(62),        // 254
                label(63) + "." + label(63) + "." + label(63) + "." + label(61) + ".",  // 253 and the root dot
                label(64) + ".example", " a.example", "a.example ", "A.EXAMPLE", "xn--ls8h.la"));
        for (int i = 0; i < 200_000; i++) {
            StringBuilder name = new StringBuilder();
            int length = random.nextInt(i % 100 == 0 ? 260 : 24);
            for (int c = 0; c < length; c++) {
                // mostly the plain characters, sometimes anything from the alphabet
                name.append(random.nextInt(8) == 0 ? alphabet.charAt(random.nextInt(alphabet.length()))
                        : alphabet.charAt(random.nextInt(10)));
            }
            names.add(name.toString());
        }
        for (String name : names) {
            assertThat(DomainNames.normalize(name)).as("'%s'", name).isEqualTo(DomainNames.normalizeSlowly(name));
            String plain = DomainNames.plainHostName(name);
            if (plain != null) {
                assertThat(DomainNames.normalizeSlowly(name)).as("'%s'", name).contains(plain);
            }
        }
    }

    private static String label(int length) {
        return "a".repeat(length);
    }
}
