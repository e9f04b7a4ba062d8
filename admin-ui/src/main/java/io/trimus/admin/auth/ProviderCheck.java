package io.trimus.admin.auth;

import io.trimus.admin.config.OidcConfig;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Whether the identity provider answers its discovery document right now, asked before a browser is sent into the
 * code flow: quarkus-oidc answers a provider it cannot reach with a bare 401, while the dashboard can say why. An
 * answer is kept a while (a minute when reachable, 5 s when not), so anonymous clicks cannot make it a request each.
 */
@ApplicationScoped
public class ProviderCheck {
    private static final Logger LOG = Logger.getLogger(ProviderCheck.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final Duration KEEP_REACHABLE = Duration.ofMinutes(1);
    private static final Duration KEEP_UNREACHABLE = Duration.ofSeconds(5);

    private final OidcConfig config;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private volatile Answer last;

    private record Answer(boolean reachable, long validUntilNanos) {
    }

    ProviderCheck(OidcConfig config) {
        this.config = config;
    }

    /** True when {@code <issuer>/.well-known/openid-configuration} answered 200 within 3 seconds (lately). */
    public boolean reachable() {
        Answer known = last;
        if (known != null && System.nanoTime() - known.validUntilNanos() < 0) {
            return known.reachable();
        }
        boolean reachable = ask();
        last = new Answer(reachable, System.nanoTime() + (reachable ? KEEP_REACHABLE : KEEP_UNREACHABLE).toNanos());
        return reachable;
    }

    private boolean ask() {
        URI discovery = URI.create(config.issuer().orElseThrow().replaceAll("/+$", "")
                + "/.well-known/openid-configuration");
        try {
            int status = http.send(HttpRequest.newBuilder(discovery).timeout(TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status != 200) {
                LOG.warnf("the identity provider's discovery document %s answered %d", discovery, status);
            }
            return status == 200;
        } catch (IOException e) {
            LOG.warnf("the identity provider's discovery document %s cannot be read: %s", discovery, e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
