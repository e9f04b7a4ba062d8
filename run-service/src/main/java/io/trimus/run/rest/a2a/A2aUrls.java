package io.trimus.run.rest.a2a;

import io.quarkus.runtime.LaunchMode;
import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.net.URI;
import java.util.Set;
import java.util.UUID;

/**
 * Where a published agent is reached: TRIMUS_A2A_PUBLIC_URL, else the address run-service listens on
 * ({@code http://<quarkus.http.host>:<port>}, localhost for a wildcard host). Never the request's Host header: the
 * card is open to anyone, and a caller choosing the Host would choose where others send their tasks and tokens.
 */
@ApplicationScoped
public class A2aUrls {
    static final String CARD_PATH = "/.well-known/agent-card.json";
    private static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "[::]", "*");

    private final TrimusConfig config;

    A2aUrls(TrimusConfig config) {
        this.config = config;
    }

    /** The agent's JSON-RPC endpoint. */
    String endpoint(UUID companyId, UUID agentId) {
        URI base = config.a2a().publicUrl().orElseGet(A2aUrls::listening);
        return base.toString().replaceAll("/+$", "") + "/a2a/companies/" + companyId + "/agents/" + agentId;
    }

    /** The agent's card. */
    String card(UUID companyId, UUID agentId) {
        return endpoint(companyId, agentId) + CARD_PATH;
    }

    /** The address run-service's HTTP server listens on; read when asked, since a port 0 is known only once bound. */
    static URI listening() {
        Config quarkus = ConfigProvider.getConfig();
        String host = quarkus.getOptionalValue("quarkus.http.host", String.class).orElse("localhost");
        if (WILDCARDS.contains(host)) {
            host = "localhost";
        } else if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        String port = LaunchMode.current() == LaunchMode.TEST ? "quarkus.http.test-port" : "quarkus.http.port";
        return URI.create("http://" + host + ":" + quarkus.getOptionalValue(port, Integer.class).orElse(8081));
    }
}
