package io.trimus.admin.client;

import io.trimus.admin.client.RequestRules.Request;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A list judges a request as egress-service's proxy does (a plain entry tunnels, else one ruled entry must allow
 * method and path), and "Add this path" widens the list that refused, as little as it can.
 */
class RequestRulesTest {
    private static final String GET_ACME = "{\"host\":\"api.github.com\",\"methods\":[\"GET\",\"HEAD\"],"
            + "\"paths\":[\"/repos/acme/\",\"/user\"]}";
    private static final String POST_GRAPHQL =
            "{\"host\":\"api.github.com\",\"methods\":[\"POST\"],\"paths\":[\"/graphql\"]}";

    @Test
    void theRequestComesFromTheDenialsNameAndWay() {
        assertThat(Request.of("api.github.com", "TLS", "GET", "/x"))
                .isEqualTo(new Request("api.github.com", 443, "GET", "/x"));
        assertThat(Request.of("api.github.com", "HTTP", "GET", "/x").port()).isEqualTo(80);
        assertThat(Request.of("git.example.com:8443", "TLS", "GET", "/x"))
                .isEqualTo(new Request("git.example.com", 8443, "GET", "/x"));
        assertThat(Request.of("h.example", "TLS", "PROPFIND", "/x").allowable()).isFalse();
        assertThat(Request.of("h.example", "TLS", "GET", "x").allowable()).isFalse();
        assertThat(Request.of("h.example", "TLS", "GET", "/x").allowable()).isTrue();
    }

    @Test
    void aListRefusesARequestNoneOfItsRuledEntriesAllows() {
        List<String> list = List.of("pypi.org", GET_ACME, POST_GRAPHQL);
        assertThat(RequestRules.refusal(list, req("GET", "/repos/acme/app"))).isEmpty();
        assertThat(RequestRules.refusal(list, req("GET", "/user/emails"))).isEmpty();
        assertThat(RequestRules.refusal(list, req("POST", "/graphql"))).isEmpty();
        assertThat(RequestRules.refusal(list, req("GET", "/users"))).hasValueSatisfying(ruled ->
                assertThat(ruled).extracting(AllowlistEntries.Parts::text).containsExactly(GET_ACME, POST_GRAPHQL));
        assertThat(RequestRules.refusal(list, req("DELETE", "/repos/acme/app"))).isPresent();
        assertThat(RequestRules.refusal(list, req("GET", "/repos/acme"))).as("/repos/acme/ needs the slash")
                .isPresent();
        // a plain entry for the host makes it a tunnel; an entry for another port does not
        assertThat(RequestRules.refusal(List.of(GET_ACME, "api.github.com"), req("DELETE", "/x"))).isEmpty();
        assertThat(RequestRules.refusal(List.of(GET_ACME, "api.github.com:8443"), req("DELETE", "/x"))).isPresent();
        // a wildcard entry with rules covers the names below it
        assertThat(RequestRules.refusal(List.of("{\"host\":\"*.github.com\",\"methods\":[\"GET\"]}"),
                req("GET", "/x"))).isEmpty();
        // nothing opens the host: refused, with no entry to show
        assertThat(RequestRules.refusal(List.of("pypi.org"), req("GET", "/x"))).hasValue(List.of());
    }

    @Test
    void addingARequestWidensTheEntryThatListsItsMethodElseAddsOne() {
        List<String> list = List.of("pypi.org", GET_ACME, POST_GRAPHQL);
        List<String> path = RequestRules.widened(list, req("GET", "/orgs/acme"));
        assertThat(path).containsExactly("pypi.org", "{\"host\":\"api.github.com\",\"methods\":[\"GET\",\"HEAD\"],"
                + "\"paths\":[\"/repos/acme/\",\"/user\",\"/orgs/acme\"]}", POST_GRAPHQL);
        assertThat(RequestRules.refusal(path, req("GET", "/orgs/acme"))).isEmpty();

        List<String> method = RequestRules.widened(list, req("DELETE", "/repos/acme/app"));
        assertThat(method.get(1)).isEqualTo("{\"host\":\"api.github.com\",\"methods\":[\"GET\",\"HEAD\",\"DELETE\"],"
                + "\"paths\":[\"/repos/acme/\",\"/user\"]}");
        assertThat(RequestRules.refusal(method, req("DELETE", "/repos/acme/app"))).isEmpty();

        List<String> both = RequestRules.widened(list, req("PUT", "/gists"));
        assertThat(RequestRules.refusal(both, req("PUT", "/gists"))).isEmpty();
        assertThat(both).hasSize(3);

        List<String> fresh = RequestRules.widened(List.of("pypi.org"), req("GET", "/x"));
        assertThat(fresh).containsExactly("pypi.org", "{\"host\":\"api.github.com\",\"methods\":[\"GET\"],"
                + "\"paths\":[\"/x\"]}");
        assertThat(RequestRules.widened(List.of(), Request.of("git.example.com:8443", "TLS", "GET", "/x")))
                .containsExactly("{\"host\":\"git.example.com\",\"ports\":[8443],\"methods\":[\"GET\"],"
                        + "\"paths\":[\"/x\"]}");
    }

    private static Request req(String method, String path) {
        return new Request("api.github.com", 443, method, path);
    }
}
