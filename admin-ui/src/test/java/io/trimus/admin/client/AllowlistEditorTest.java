package io.trimus.admin.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The allowlist editor's handling of entries with request rules: listed as their JSON text, sent back as objects,
 * typed as JSON into the same field; bad JSON refused before anything is sent; egress-service's refusals said of the
 * entry (and the field inside an object).
 */
class AllowlistEditorTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void objectEntriesAreListedAsTheirJsonTextAndSentBackAsObjects() throws Exception {
        JsonNode listed = JSON.readTree("{\"company_id\":\"" + UUID.randomUUID() + "\",\"entries\":[\"pypi.org\","
                + "{\"host\":\"api.github.com\",\"ports\":[443],\"methods\":[\"GET\"],\"paths\":[\"/repos/acme/\"]}]}");
        EgressServiceApi.Allowlist allowlist = new EgressServiceApi.Allowlist(UUID.randomUUID(),
                List.of(listed.get("entries").get(0), listed.get("entries").get(1)));

        List<String> texts = allowlist.texts();
        assertThat(texts).containsExactly("pypi.org",
                "{\"host\":\"api.github.com\",\"ports\":[443],\"methods\":[\"GET\"],\"paths\":[\"/repos/acme/\"]}");

        EgressServiceApi.AllowlistBody body = AllowlistEditor.body(texts);
        assertThat(body.entries().get(0).isTextual()).isTrue();
        assertThat(body.entries().get(1).isObject()).isTrue();
        assertThat(body.entries().get(1)).isEqualTo(listed.get("entries").get(1));
    }

    @Test
    void aTypedObjectIsCompactedAndTypedJsonThatIsNoObjectIsRefusedNamingTheEntry() {
        assertThat(AllowlistEditor.objectText(" { \"host\" : \"api.github.com\", \"methods\": [\"GET\"] } "))
                .isEqualTo("{\"host\":\"api.github.com\",\"methods\":[\"GET\"]}");

        BackendException broken = catchThrowableOfType(BackendException.class,
                () -> AllowlistEditor.objectText("{\"host\": \"api.github.com\""));
        assertThat(broken.kind()).isEqualTo(BackendException.Kind.REFUSED);
        assertThat(broken.getMessage()).startsWith("The entry starts with { but is no JSON object such as");
        assertThat(catchThrowableOfType(BackendException.class, () -> AllowlistEditor.objectText("{}x")).kind())
                .as("trailing text").isEqualTo(BackendException.Kind.REFUSED);
        assertThat(catchThrowableOfType(BackendException.class, () -> AllowlistEditor.objectText("{[1]}")).kind())
                .isEqualTo(BackendException.Kind.REFUSED);
    }

    @Test
    void egressServicesRefusalIsSaidOfTheEntryAndOfTheFieldInsideAnObject() {
        BackendException path = AllowlistEditor.entryRefusal(new BackendException(Backend.EGRESS_SERVICE,
                BackendException.Kind.REFUSED, "entries[1].paths[0] must start with /", "entries[1].paths[0]", null));
        BackendException plain = AllowlistEditor.entryRefusal(new BackendException(Backend.EGRESS_SERVICE,
                BackendException.Kind.REFUSED, "entries[0] is not a host name", "entries[0]", null));

        assertThat(path.getMessage()).isEqualTo("The entry's paths[0] must start with /.");
        assertThat(plain.getMessage()).isEqualTo("The entry is not a host name.");
    }
}
