package io.trimus.admin.client;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Entries in parts and in canonical form (an object whose fields or list items come in another order is the same
 * entry), and the request-rule form's object: bounded here, everything else left to egress-service.
 */
class AllowlistEntriesTest {
    private static final String STORED = "{\"host\":\"api.github.com\",\"ports\":[443],"
            + "\"methods\":[\"GET\",\"HEAD\"],\"paths\":[\"/repos/acme/\",\"/user\"]}";

    @Test
    void anObjectWithItsFieldsAndListsInAnotherOrderIsTheSameEntry() {
        String typed = "{ \"paths\": [\"/user\", \"/repos/acme/\"], \"methods\": [\"HEAD\", \"GET\", \"GET\"],"
                + " \"ports\": [443], \"host\": \"API.GitHub.com.\" }";
        assertThat(AllowlistEntries.same(typed, STORED)).isTrue();
        assertThat(AllowlistEntries.canonical(typed)).isEqualTo(STORED);
        assertThat(AllowlistEntries.same("{\"host\":\"api.github.com\",\"ports\":[10,9]}",
                "{\"ports\":[9,10],\"host\":\"api.github.com\"}")).isTrue();
        assertThat(AllowlistEntries.same(STORED.replace("/user", "/users"), STORED)).isFalse();
        assertThat(AllowlistEntries.same(STORED.replace("\"HEAD\"", "\"POST\""), STORED)).isFalse();
        assertThat(AllowlistEntries.same("Api.GitHub.com.", "api.github.com")).isTrue();
        assertThat(AllowlistEntries.same("{\"host\":\"a.example\"}", "a.example")).as("an object is no string")
                .isFalse();
    }

    @Test
    void anEntryIsReadInParts() {
        AllowlistEntries.Parts rule = AllowlistEntries.parts(STORED);
        assertThat(rule.object()).isTrue();
        assertThat(rule.ruled()).isTrue();
        assertThat(rule.host()).isEqualTo("api.github.com");
        assertThat(rule.ports()).containsExactly(443);
        assertThat(rule.methods()).containsExactly("GET", "HEAD");
        assertThat(rule.paths()).containsExactly("/repos/acme/", "/user");

        AllowlistEntries.Parts plain = AllowlistEntries.parts("git.example.com:22");
        assertThat(plain.object()).isFalse();
        assertThat(plain.ruled()).isFalse();
        assertThat(plain.host()).isEqualTo("git.example.com");
        assertThat(plain.ports()).containsExactly(22);
        assertThat(AllowlistEntries.parts("{\"host\": 5, \"paths\": [1, \"/x\"]}").paths()).containsExactly("/x");
    }

    @Test
    void theRuleFormIsAnObjectInTheOrderTypedWithEmptyListsLeftOut() {
        assertThat(AllowlistEntries.fromForm(" api.github.com ", "443, 8443", List.of("HEAD", "GET"),
                "/repos/acme/\r\n\n  /user  \n")).isEqualTo("{\"host\":\"api.github.com\",\"ports\":[443,8443],"
                + "\"methods\":[\"GET\",\"HEAD\"],\"paths\":[\"/repos/acme/\",\"/user\"]}");
        assertThat(AllowlistEntries.fromForm("pypi.org", "", List.of(), "")).isEqualTo("{\"host\":\"pypi.org\"}");
        // what egress-service decides (a port's range, a path's normal form) goes there as typed
        assertThat(AllowlistEntries.fromForm("h.example", "70000", null, "/a/../b"))
                .isEqualTo("{\"host\":\"h.example\",\"ports\":[70000],\"paths\":[\"/a/../b\"]}");
    }

    @Test
    void theRuleFormIsBoundedAndRefusedNamingItsField() {
        assertThat(field(() -> AllowlistEntries.fromForm(" ", "", List.of(), ""))).isEqualTo("host");
        assertThat(field(() -> AllowlistEntries.fromForm("x".repeat(257), "", List.of(), ""))).isEqualTo("host");
        assertThat(field(() -> AllowlistEntries.fromForm("h.example", "443; DROP", List.of(), ""))).isEqualTo("ports");
        assertThat(field(() -> AllowlistEntries.fromForm("h.example", "1 ".repeat(33), List.of(), "")))
                .isEqualTo("ports");
        assertThat(field(() -> AllowlistEntries.fromForm("h.example", "", List.of("TRACE"), ""))).isEqualTo("methods");
        assertThat(field(() -> AllowlistEntries.fromForm("h.example", "", List.of("get"), ""))).isEqualTo("methods");
        assertThat(field(() -> AllowlistEntries.fromForm("h.example", "", List.of(), "/a\n".repeat(33))))
                .isEqualTo("paths");
        assertThat(field(() -> AllowlistEntries.fromForm("h.example", "", List.of(), "/" + "a".repeat(512))))
                .isEqualTo("paths");
        assertThat(field(() -> AllowlistEntries.fromForm("h.example", "", List.of(),
                "x".repeat(AllowlistEntries.MAX_PATHS_TEXT + 1)))).isEqualTo("paths");
    }

    private static String field(Runnable call) {
        BackendException e = catchThrowableOfType(BackendException.class, call::run);
        assertThat(e.kind()).isEqualTo(BackendException.Kind.REFUSED);
        return e.field();
    }
}
