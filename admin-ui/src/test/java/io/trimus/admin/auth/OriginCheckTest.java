package io.trimus.admin.auth;

import io.trimus.admin.config.TrimusConfig;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The Origin/Referer rule with and without TRIMUS_DASHBOARD_URL, and where a sign-in may lead. */
class OriginCheckTest {
    private static final String HOST = "127.0.0.1:8080";

    @Test
    void withoutAConfiguredUrlTheRequestsOwnHostIsTheOrigin() {
        OriginCheck check = new OriginCheck(config(null));
        assertThat(check.allows("POST", "http://127.0.0.1:8080", null, HOST)).isTrue();
        assertThat(check.allows("POST", null, "http://127.0.0.1:8080/companies", HOST)).isTrue();
        assertThat(check.allows("POST", null, null, HOST)).as("a script: no Origin, no Referer").isTrue();
        assertThat(check.allows("GET", "http://evil.example", null, HOST)).as("reads are not checked").isTrue();

        assertThat(check.allows("POST", "http://127.0.0.1:9999", null, HOST)).isFalse();
        assertThat(check.allows("DELETE", "http://evil.example", null, HOST)).isFalse();
        assertThat(check.allows("POST", null, "http://evil.example/x", HOST)).isFalse();
        assertThat(check.allows("POST", "null", null, HOST)).isFalse();
        assertThat(check.allows("POST", "http://127.0.0.1:8080", null, null)).as("no Host to compare").isFalse();
        // Origin wins over a Referer of our own
        assertThat(check.allows("POST", "http://evil.example", "http://127.0.0.1:8080/", HOST)).isFalse();
    }

    @Test
    void aConfiguredUrlIsTheOnlyOriginAcceptedWhateverTheHostSays() {
        OriginCheck check = new OriginCheck(config(URI.create("https://trimus.example.com/")));
        assertThat(check.allows("POST", "https://trimus.example.com", null, "evil.example")).isTrue();
        assertThat(check.allows("POST", "https://trimus.example.com:443", null, "x")).isTrue();
        assertThat(check.allows("POST", "http://trimus.example.com", null, "trimus.example.com"))
                .as("another scheme is another origin").isFalse();
        assertThat(check.allows("POST", "https://evil.example", null, "evil.example")).isFalse();
        assertThat(check.allows("POST", "https://trimus.example.com.evil.example", null, "x")).isFalse();
    }

    @Test
    void aSignInLeadsOnlyToAPathOfThisDashboard() {
        assertThat(SafeNext.of("/companies/1/egress?reason=x")).isEqualTo("/companies/1/egress?reason=x");
        for (String bad : new String[]{null, "", "https://evil.example", "//evil.example", "/\\evil.example",
                "javascript:alert(1)", "/login?next=/x", "/a\r\nSet-Cookie: x=y", "evil.example",
                "/sign-in/oidc/complete?next=/", "/sign-in/oidc"}) {
            assertThat(SafeNext.of(bad)).as(String.valueOf(bad)).isEqualTo("/");
        }
    }

    private static TrimusConfig config(URI url) {
        return new TrimusConfig() {
            @Override
            public URI runServiceUrl() {
                return URI.create("http://127.0.0.1:8081");
            }

            @Override
            public URI egressServiceUrl() {
                return URI.create("http://127.0.0.1:8083");
            }

            @Override
            public Duration backendTimeout() {
                return Duration.ofSeconds(5);
            }

            @Override
            public Dashboard dashboard() {
                return new Dashboard() {
                    @Override
                    public Optional<URI> url() {
                        return Optional.ofNullable(url);
                    }

                    @Override
                    public SecureCookies secureCookies() {
                        return SecureCookies.AUTO;
                    }
                };
            }

            @Override
            public io.trimus.commons.streams.StreamLimits streams() {
                return new io.trimus.commons.streams.StreamLimits() {
                    @Override
                    public Duration recheck() {
                        return Duration.ofSeconds(30);
                    }

                    @Override
                    public int maxPerCaller() {
                        return 10;
                    }
                };
            }

            @Override
            public Shutdown shutdown() {
                return new Shutdown() {
                    @Override
                    public Duration kafkaCloseTimeout() {
                        return Duration.ofSeconds(1);
                    }

                    @Override
                    public Duration kafkaConsumerGrace() {
                        return Duration.ofMillis(500);
                    }
                };
            }
        };
    }
}
