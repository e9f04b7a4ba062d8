package io.trimus.admin.auth;

import io.quarkus.oidc.OidcTenantConfig;
import io.trimus.admin.config.OidcConfig;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two admin-ui replicas started from the same configuration encrypt a sign-in's state cookie with the same key, so the
 * provider may send the browser back to either of them: the key comes from TRIMUS_OIDC_STATE_SECRET or the client
 * secret, never from the process.
 */
class OidcTenantReplicasTest {
    private static final String STATE_SECRET = "a-state-secret-of-at-least-32-characters";

    @Test
    void twoReplicasOfAPublicClientWithAStateSecretShareTheStateKey() {
        Config config = new Config(Optional.empty(), Optional.of(STATE_SECRET));

        assertThat(stateKey(new OidcTenant(config))).isEqualTo(stateKey(new OidcTenant(config)))
                .doesNotContain(STATE_SECRET);
        assertThat(encryptionKey(new OidcTenant(config))).isEqualTo(stateKey(new OidcTenant(config)));
    }

    @Test
    void twoReplicasOfAConfidentialClientShareTheStateKeyDerivedFromItsSecret() {
        Config config = new Config(Optional.of("the-client-secret"), Optional.empty());

        assertThat(stateKey(new OidcTenant(config))).isEqualTo(stateKey(new OidcTenant(config)))
                .doesNotContain("the-client-secret");
    }

    @Test
    void theStateSecretDecidesTheKeyEvenWhenTheClientHasASecret() {
        Config withState = new Config(Optional.of("the-client-secret"), Optional.of(STATE_SECRET));

        assertThat(stateKey(new OidcTenant(withState)))
                .isEqualTo(stateKey(new OidcTenant(new Config(Optional.empty(), Optional.of(STATE_SECRET)))))
                .isNotEqualTo(stateKey(new OidcTenant(new Config(Optional.of("the-client-secret"), Optional.empty()))));
    }

    @Test
    void withoutAnySecretEachProcessHasAKeyOfItsOwn() {
        Config config = new Config(Optional.empty(), Optional.empty());

        assertThat(stateKey(new OidcTenant(config))).isNotEqualTo(stateKey(new OidcTenant(config)));
    }

    @Test
    void aShortStateSecretIsRefused() {
        assertThatThrownBy(() -> new OidcTenant(new Config(Optional.empty(), Optional.of("too-short"))))
                .hasMessageContaining("TRIMUS_OIDC_STATE_SECRET");
    }

    private static String stateKey(OidcTenant tenant) {
        return tenant.tenantConfig().map(OidcTenantConfig::authentication).orElseThrow().stateSecret().orElseThrow();
    }

    private static String encryptionKey(OidcTenant tenant) {
        return tenant.tenantConfig().map(OidcTenantConfig::tokenStateManager).orElseThrow().encryptionSecret()
                .orElseThrow();
    }

    /** Sign-in through a provider switched on, with the given secrets. */
    private record Config(Optional<String> clientSecret, Optional<String> stateSecret) implements OidcConfig {
        @Override
        public Optional<String> issuer() {
            return Optional.of("http://127.0.0.1:1/idp");
        }

        @Override
        public Optional<String> clientId() {
            return Optional.of("trimus-dashboard");
        }

        @Override
        public String providerName() {
            return "single sign-on";
        }
    }
}
