package io.trimus.egress.allowlist;

import io.trimus.commons.problem.ProblemException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A wildcard entry may not open a public suffix, from the ICANN section of the Public Suffix List ({@code co.uk}) or
 * its private one ({@code github.io}), in any spelling (case, trailing dot, Unicode or punycode); a wildcard over a
 * domain registered under one, and any exact name, stays allowed.
 */
class PublicSuffixWildcardTest {

    /** Refused entry as sent, and the public suffix the refusal names (normalised). */
    public static Stream<Arguments> wildcardsOverPublicSuffixes() {
        return Stream.of(
                Arguments.of("*.co.uk", "co.uk"),
                Arguments.of("*.CO.UK.", "co.uk"),
                Arguments.of("*.eu.org", "eu.org"),              // private section
                Arguments.of("*.github.io", "github.io"),        // private section
                Arguments.of("*.s3.amazonaws.com", "s3.amazonaws.com"),
                Arguments.of("*.公司.cn", "xn--55qx5d.cn"),         // IDN, Unicode as sent
                Arguments.of("*.xn--55qx5d.cn", "xn--55qx5d.cn"),  // the same suffix in punycode
                Arguments.of("*.anything.ck", "anything.ck"));     // a wildcard rule of the list: *.ck
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("wildcardsOverPublicSuffixes")
    void aWildcardOverAPublicSuffixIsRefusedNamingTheEntryAndTheSuffix(String entry, String suffix) {
        ProblemException refused = catchThrowableOfType(ProblemException.class,
                () -> AllowlistService.normaliseAll(List.of("api.example.com", entry)));

        assertThat(refused).isNotNull();
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.field()).isEqualTo("entries[1]");
        assertThat(refused.getMessage()).contains("public suffix " + suffix);
        assertThat(DomainNames.publicSuffixOpenedBy(DomainNames.normalizeEntry(entry).orElseThrow()))
                .contains(suffix);
    }

    @Test
    void aWildcardOverARegisteredDomainOrAnExactNameStaysAllowed() {
        assertThat(AllowlistService.normaliseAll(List.of("*.example.co.uk", "*.trimus.github.io", "*.npmjs.org",
                "*.www.ck", "*.bücher.example", "co.uk", "github.io", "Example.CO.UK.")))
                .containsExactly("*.example.co.uk", "*.npmjs.org", "*.trimus.github.io", "*.www.ck",
                        "*.xn--bcher-kva.example", "co.uk", "example.co.uk", "github.io");
        for (String entry : List.of("*.example.co.uk", "*.trimus.github.io", "co.uk", "github.io", "*.a_b.example")) {
            assertThat(DomainNames.publicSuffixOpenedBy(entry)).as(entry).isEmpty();
        }
    }

    @Test
    void aWildcardOverATopLevelDomainIsStillRefused() {
        for (String entry : List.of("*.com", "*.uk", "*.xn--p1ai", "*.рф")) {
            ProblemException refused = catchThrowableOfType(ProblemException.class,
                    () -> AllowlistService.normaliseAll(List.of(entry)));
            assertThat(refused).as(entry).isNotNull();
            assertThat(refused.field()).isEqualTo("entries[0]");
        }
    }
}
