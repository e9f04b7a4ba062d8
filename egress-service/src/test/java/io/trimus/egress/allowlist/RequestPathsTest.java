package io.trimus.egress.allowlist;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The normal form a path rule matches, and the hostile spellings that must match no prefix they escape. */
class RequestPathsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "/, /",
            "/repos/acme/x, /repos/acme/x",
            "/repos/acme/x?q=/../../evil, /repos/acme/x",
            "/repos//acme///x, /repos/acme/x",
            "/repos/./acme/x, /repos/acme/x",
            "/repos/acme/../evil, /repos/evil",
            "/repos/acme/x/.., /repos/acme/",
            "/repos/acme/x/., /repos/acme/x/",
            "/repos/%61cme/x, /repos/acme/x",
            "/repos/acme/%2e%2e/evil, /repos/evil",
            "/repos/acme/%2E%2E/evil, /repos/evil",
            "/a%3a%7e, /a%3A~",
            "/a/, /a/",
            "/a?, /a",
    })
    void normalForm(String target, String normal) {
        assertThat(RequestPaths.normalise(target)).isEqualTo(normal);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", "*", "repos/acme", "http://a.example/x", "/repos/acme%2F..%2Fevil",
            "/repos/acme%2f..%2fevil", "/a%5C..%5Cb", "/a\\..\\b", "/..", "/a/../..", "/a/%2e%2e/%2e%2e/b",
            "/a/..;/b", "/a/.;/b", "/a%00b", "/a%0d%0ab", "/a%", "/a%zz", "/a%4", "/a b", "/a\tb", "/é"})
    void refusedPathsHaveNoNormalForm(String target) {
        assertThat(RequestPaths.normalise(target)).isNull();
    }

    @ParameterizedTest(name = "{1} under {0}: {2}")
    @CsvSource({
            "/repos/acme/, /repos/acme/x, true",
            "/repos/acme/, /repos/acme/, true",
            "/repos/acme/, /repos/acme, false",
            "/repos/acme/, /repos/acmeX/y, false",
            "/repos/acme/, /Repos/acme/x, false",
            "/repos/acme/, /repos/evil, false",
            "/user, /user, true",
            "/user, /user/emails, true",
            "/user, /users, false",
            "/user, /use, false",
            "/, /anything, true",
    })
    void prefixesMatchAtSegmentBoundaries(String prefix, String path, boolean under) {
        assertThat(RequestPaths.under(prefix, RequestPaths.normalise(path))).isEqualTo(under);
    }
}
