package io.trimus.events.adapter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A lambda adapter_config is accepted only with an http(s) endpoint and sane settings; credentials only ever come from
 * a company secret, and no header can take over framing, routing or Trimus's own headers.
 */
class LambdaAdapterConfigTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aFullConfigIsReadIntoItsSettings() {
        LambdaAdapterConfig config = LambdaAdapterConfig.parse(json("""
                {"endpoint_url": "https://agent.example.com:8443/v1/run?tenant=a%20b",
                 "method": "PUT",
                 "headers": {"X-Team": "platform", "Accept-Language": "en"},
                 "auth_header": {"name": "Authorization", "secret": "AGENT_TOKEN"},
                 "timeout_ms": 120000,
                 "retries": 3,
                 "backoff_ms": 250}
                """));

        assertThat(config.endpointUrl()).isEqualTo(URI.create("https://agent.example.com:8443/v1/run?tenant=a%20b"));
        assertThat(config.method()).isEqualTo("PUT");
        assertThat(config.headers()).containsExactlyInAnyOrderEntriesOf(Map.of("X-Team", "platform",
                "Accept-Language", "en"));
        assertThat(config.authHeader()).isEqualTo(new LambdaAdapterConfig.AuthHeader("Authorization", "AGENT_TOKEN"));
        assertThat(config.timeoutMs()).isEqualTo(120_000);
        assertThat(config.retries()).isEqualTo(3);
        assertThat(config.backoffMs()).isEqualTo(250);
        assertThat(config.https()).isTrue();
        assertThat(config.port()).isEqualTo(8443);
        assertThat(config.host()).isEqualTo("agent.example.com");
        assertThat(config.requestUri()).isEqualTo("/v1/run?tenant=a%20b");
    }

    @Test
    void anEndpointAloneGetsTheDefaults() {
        LambdaAdapterConfig config = LambdaAdapterConfig.parse(json("{\"endpoint_url\": \"http://agent.example.com\"}"));

        assertThat(config.method()).isEqualTo("POST");
        assertThat(config.headers()).isEmpty();
        assertThat(config.authHeader()).isNull();
        assertThat(config.timeoutMs()).isEqualTo(LambdaAdapterConfig.DEFAULT_TIMEOUT_MS);
        assertThat(config.retries()).isZero();
        assertThat(config.backoffMs()).isEqualTo(LambdaAdapterConfig.DEFAULT_BACKOFF_MS);
        assertThat(config.port()).isEqualTo(80);
        assertThat(config.requestUri()).isEqualTo("/");
    }

    @Test
    void anIpv6LiteralHostLosesItsBrackets() {
        LambdaAdapterConfig config = LambdaAdapterConfig.parse(json("{\"endpoint_url\": \"https://[2001:db8::1]/run\"}"));

        assertThat(config.host()).isEqualTo("2001:db8::1");
        assertThat(config.port()).isEqualTo(443);
    }

    @Test
    void theBoundsAreInclusive() {
        assertThat(LambdaAdapterConfig.parse(json("""
                {"endpoint_url": "http://a.example", "timeout_ms": 1000, "retries": 5, "backoff_ms": 10}
                """))).extracting(LambdaAdapterConfig::timeoutMs, LambdaAdapterConfig::retries,
                LambdaAdapterConfig::backoffMs).containsExactly(1000, 5, 10);
        assertThat(LambdaAdapterConfig.parse(json("""
                {"endpoint_url": "http://a.example", "timeout_ms": 900000, "backoff_ms": 60000}
                """)).timeoutMs()).isEqualTo(900_000);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {}                                                                   | adapter_config.endpoint_url
            {"endpoint_url": null}                                               | adapter_config.endpoint_url
            {"endpoint_url": ""}                                                 | adapter_config.endpoint_url
            {"endpoint_url": 42}                                                 | adapter_config.endpoint_url
            {"endpoint_url": "ftp://a.example/x"}                                | adapter_config.endpoint_url
            {"endpoint_url": "file:///etc/passwd"}                               | adapter_config.endpoint_url
            {"endpoint_url": "gopher://a.example:70/"}                           | adapter_config.endpoint_url
            {"endpoint_url": "a.example/run"}                                    | adapter_config.endpoint_url
            {"endpoint_url": "http:///run"}                                      | adapter_config.endpoint_url
            {"endpoint_url": "http://user:pw@a.example/run"}                     | adapter_config.endpoint_url
            {"endpoint_url": "http://a.example/run#frag"}                        | adapter_config.endpoint_url
            {"endpoint_url": "http://a.example:0/run"}                           | adapter_config.endpoint_url
            {"endpoint_url": "http://a.example:70000/run"}                       | adapter_config.endpoint_url
            {"endpoint_url": "http://a b.example/run"}                           | adapter_config.endpoint_url
            {"endpoint_url": "http://a.example", "method": "GET"}                | adapter_config.method
            {"endpoint_url": "http://a.example", "method": "post"}               | adapter_config.method
            {"endpoint_url": "http://a.example", "method": "DELETE"}             | adapter_config.method
            {"endpoint_url": "http://a.example", "headers": ["X: y"]}            | adapter_config.headers
            {"endpoint_url": "http://a.example", "headers": {"Host": "b"}}       | adapter_config.headers.Host
            {"endpoint_url": "http://a.example", "headers": {"content-length": "1"}} | adapter_config.headers.content-length
            {"endpoint_url": "http://a.example", "headers": {"Transfer-Encoding": "chunked"}} | adapter_config.headers.Transfer-Encoding
            {"endpoint_url": "http://a.example", "headers": {"Connection": "close"}} | adapter_config.headers.Connection
            {"endpoint_url": "http://a.example", "headers": {"Idempotency-Key": "x"}} | adapter_config.headers.Idempotency-Key
            {"endpoint_url": "http://a.example", "headers": {"Content-Type": "text/plain"}} | adapter_config.headers.Content-Type
            {"endpoint_url": "http://a.example", "headers": {"Upgrade": "h2c"}}  | adapter_config.headers.Upgrade
            {"endpoint_url": "http://a.example", "headers": {"Authorization": "Bearer x"}} | adapter_config.headers.Authorization
            {"endpoint_url": "http://a.example", "headers": {"X-A": "1", "x-a": "2"}} | adapter_config.headers.x-a
            {"endpoint_url": "http://a.example", "headers": {"X Y": "1"}}        | adapter_config.headers.X Y
            {"endpoint_url": "http://a.example", "headers": {"X-A": "1\\r\\nX-B: 2"}} | adapter_config.headers.X-A
            {"endpoint_url": "http://a.example", "headers": {"X-A": 1}}          | adapter_config.headers.X-A
            {"endpoint_url": "http://a.example", "auth_header": {"name": "X-Key", "secret": "K"}, "headers": {"x-key": "v"}} | adapter_config.headers.x-key
            {"endpoint_url": "http://a.example", "auth_header": "Bearer x"}      | adapter_config.auth_header
            {"endpoint_url": "http://a.example", "auth_header": {"secret": "K"}} | adapter_config.auth_header.name
            {"endpoint_url": "http://a.example", "auth_header": {"name": "Authorization"}} | adapter_config.auth_header.secret
            {"endpoint_url": "http://a.example", "auth_header": {"name": "Authorization", "secret": "1BAD"}} | adapter_config.auth_header.secret
            {"endpoint_url": "http://a.example", "auth_header": {"name": "Host", "secret": "K"}} | adapter_config.auth_header.name
            {"endpoint_url": "http://a.example", "auth_header": {"name": "Idempotency-Key", "secret": "K"}} | adapter_config.auth_header.name
            {"endpoint_url": "http://a.example", "auth_header": {"name": "Authorization", "secret": "K", "value": "x"}} | adapter_config.auth_header.value
            {"endpoint_url": "http://a.example", "timeout_ms": 999}              | adapter_config.timeout_ms
            {"endpoint_url": "http://a.example", "timeout_ms": 900001}           | adapter_config.timeout_ms
            {"endpoint_url": "http://a.example", "timeout_ms": "30000"}          | adapter_config.timeout_ms
            {"endpoint_url": "http://a.example", "timeout_ms": 18446744073709551616} | adapter_config.timeout_ms
            {"endpoint_url": "http://a.example", "retries": -1}                  | adapter_config.retries
            {"endpoint_url": "http://a.example", "retries": 6}                   | adapter_config.retries
            {"endpoint_url": "http://a.example", "backoff_ms": 9}                | adapter_config.backoff_ms
            {"endpoint_url": "http://a.example", "backoff_ms": 1.5}              | adapter_config.backoff_ms
            {"endpoint_url": "http://a.example", "image": "busybox"}             | adapter_config.image
            [{"endpoint_url": "http://a.example"}]                               | adapter_config
            null                                                                 | adapter_config
            """)
    void aBrokenSettingIsRefusedByName(String config, String field) {
        assertThatThrownBy(() -> LambdaAdapterConfig.parse(json(config)))
                .isInstanceOfSatisfying(AdapterConfigException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).isNotBlank();
                });
    }

    @Test
    void refusalsSayWhatWouldBeRight() {
        assertThatThrownBy(() -> LambdaAdapterConfig.parse(json(
                "{\"endpoint_url\": \"http://a.example\", \"headers\": {\"Authorization\": \"Bearer x\"}}")))
                .hasMessageContaining("auth_header");
        assertThatThrownBy(() -> LambdaAdapterConfig.parse(json("{\"endpoint_url\": \"http://u:p@a.example\"}")))
                .hasMessageContaining("auth_header").hasMessageNotContaining("u:p");
        assertThatThrownBy(() -> LambdaAdapterConfig.parse(json("{\"endpoint_url\": \"ftp://a.example\"}")))
                .hasMessageContaining("http or https");
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
