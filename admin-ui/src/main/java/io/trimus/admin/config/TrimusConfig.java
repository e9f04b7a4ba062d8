package io.trimus.admin.config;

import io.trimus.commons.config.ShutdownBounds;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.trimus.commons.streams.StreamLimits;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** Knobs of the dashboard; environment names follow the Trimus operator docs (TRIMUS_RUN_SERVICE_URL …). */
@ConfigMapping(prefix = "trimus")
public interface TrimusConfig {

    /** Base URL of run-service: companies, agents and runs (TRIMUS_RUN_SERVICE_URL, default http://127.0.0.1:8081). */
    @WithDefault("http://127.0.0.1:8081")
    URI runServiceUrl();

    /** Base URL of egress-service: allowlists and anomalies (TRIMUS_EGRESS_SERVICE_URL, default http://127.0.0.1:8083). */
    @WithDefault("http://127.0.0.1:8083")
    URI egressServiceUrl();

    /** How long one backend call may take, connect included, before the page says the backend is not answering
     * (TRIMUS_BACKEND_TIMEOUT, default 5s). */
    @WithDefault("5s")
    Duration backendTimeout();

    /** How the dashboard is reached from browsers. */
    Dashboard dashboard();

    /** The dashboard's own address and cookies. */
    interface Dashboard {
        /**
         * The dashboard's public origin, e.g. https://trimus.example.com (TRIMUS_DASHBOARD_URL, the same knob as
         * run-service's setup links); when set, only forms from this origin are accepted, else from the request's Host.
         */
        Optional<URI> url();

        /** Whether the session cookie is Secure: auto (when the request came over HTTPS, X-Forwarded-Proto included),
         * true or false (TRIMUS_DASHBOARD_SECURE_COOKIES, default auto). */
        @WithDefault("auto")
        SecureCookies secureCookies();
    }

    /** The live feeds' bounds: how often their caller is asked again, how many one credential holds open. */
    StreamLimits streams();

    /** Values of {@link Dashboard#secureCookies()}. */
    enum SecureCookies { AUTO, TRUE, FALSE }

    /** Stopping on SIGTERM: how long the stop may wait for what is away (docs/scaling.md, "Stopping"). */
    Shutdown shutdown();

    /** The bounds of a stop, declared once in commons. */
    interface Shutdown extends ShutdownBounds {
    }
}
