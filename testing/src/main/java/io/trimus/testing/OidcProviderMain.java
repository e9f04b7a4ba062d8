package io.trimus.testing;

import java.net.InetAddress;

import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;

/**
 * navikt's mock-oauth2-server in the child JVM {@link OidcProvider} starts: configured from {@code JSON_CONFIG} as
 * its own standalone main is, but bound to port 0 on {@code SERVER_HOSTNAME} so the system picks a free port at the
 * bind itself, which it prints ({@value #READY}{@code PORT}) for the parent to read. Runs until killed.
 */
public final class OidcProviderMain {
    /** Printed, followed by the bound port, once the provider listens. */
    public static final String READY = "OIDC_PROVIDER_READY ";

    private OidcProviderMain() {
    }

    public static void main(String[] args) throws Exception {
        // the standalone server's logging configuration (its LOG_LEVEL variable applies)
        System.setProperty("logback.configurationFile", "logback-standalone.xml");
        OAuth2Config config = OAuth2Config.Companion.fromJson(System.getenv("JSON_CONFIG"));
        MockOAuth2Server server = new MockOAuth2Server(config);
        server.start(InetAddress.getByName(System.getenv("SERVER_HOSTNAME")), 0);
        System.out.println(READY + server.baseUrl().port());
        System.out.flush();
    }
}
