package io.trimus.egress.proxy.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.egress.allowlist.RuledEntry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The verdict on one request to a host with request rules, and the JSON answer an agent can act on. */
class RequestDenialTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<RuledEntry> GITHUB = List.of(entry(
            "{\"host\": \"api.github.com\", \"methods\": [\"GET\", \"HEAD\"], \"paths\": [\"/repos/acme/\", \"/user\"]}"),
            entry("{\"host\": \"api.github.com\", \"methods\": [\"POST\"], \"paths\": [\"/graphql\"]}"));

    private static RuledEntry entry(String json) {
        try {
            return RuledEntry.parse("e", JSON.readTree(json));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static RequestDenial check(String method, String target) {
        return RequestDenial.check(GITHUB, "api.github.com", 443, method, target);
    }

    @Test
    void aRequestOneEntryAllowsPasses() {
        assertThat(check("GET", "/repos/acme/app/pulls?state=open")).isNull();
        assertThat(check("POST", "/graphql")).isNull();
        assertThat(RequestDenial.check(List.of(), "x.example", 443, "DELETE", "/")).isNull();
    }

    @Test
    void anotherMethodIsRefusedWithAHint() throws Exception {
        RequestDenial denial = check("DELETE", "/repos/acme/app");
        assertThat(denial.reason()).isEqualTo(RequestDenial.METHOD_NOT_ALLOWED);
        JsonNode body = JSON.readTree(denial.body());
        assertThat(body.path("error").asText()).isEqualTo("egress_denied");
        assertThat(body.path("host").asText()).isEqualTo("api.github.com");
        assertThat(body.path("method").asText()).isEqualTo("DELETE");
        assertThat(body.path("path").asText()).isEqualTo("/repos/acme/app");
        assertThat(body.path("rule_hint")).isEqualTo(JSON.readTree(
                "{\"host\": \"api.github.com\", \"methods\": [\"DELETE\"], \"paths\": [\"/repos/acme/app\"]}"));
        // the hint is itself a valid entry that would allow the request
        assertThat(RequestDenial.check(List.of(RuledEntry.parse("h", body.path("rule_hint"))), "api.github.com", 443,
                "DELETE", "/repos/acme/app")).isNull();
    }

    @Test
    void anotherPathAndEscapesAreRefused() {
        assertThat(check("GET", "/repos/evil/app").reason()).isEqualTo(RequestDenial.PATH_NOT_ALLOWED);
        assertThat(check("GET", "/repos/acme/../evil/app").path()).isEqualTo("/repos/evil/app");
        assertThat(check("GET", "/repos/acme/%2e%2e/evil").reason()).isEqualTo(RequestDenial.PATH_NOT_ALLOWED);
        RequestDenial encoded = check("GET", "/repos/acme%2F..%2Fevil?x=1");
        assertThat(encoded.reason()).isEqualTo(RequestDenial.PATH_REFUSED);
        assertThat(encoded.path()).isEqualTo("/repos/acme%2F..%2Fevil");
        assertThat(encoded.ruleHint()).isNull();
        assertThat(check("GET", "/repos/acmeX/app").reason()).isEqualTo(RequestDenial.PATH_NOT_ALLOWED);
        assertThat(check("GET", "/users").reason()).isEqualTo(RequestDenial.PATH_NOT_ALLOWED);
        assertThat(check("POST", "/repos/acme/app").reason()).isEqualTo(RequestDenial.PATH_NOT_ALLOWED);
        assertThat(check("PROPFIND", "/repos/acme/").reason()).isEqualTo(RequestDenial.METHOD_NOT_ALLOWED);
        assertThat(check("PROPFIND", "/repos/acme/").ruleHint().has("methods")).isFalse();
    }

    @Test
    void theAnswerIsA403WithJsonAndItsLength() {
        String response = new String(check("DELETE", "/user").response(true), StandardCharsets.UTF_8);
        assertThat(response).startsWith("HTTP/1.1 403 Forbidden\r\n").contains("Content-Type: application/json\r\n")
                .contains("Connection: close\r\n");
        String body = response.substring(response.indexOf("\r\n\r\n") + 4);
        assertThat(response).contains("Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n");
        assertThat(check("GET", "/" + "a".repeat(2000)).path()).hasSize(512);
    }
}
