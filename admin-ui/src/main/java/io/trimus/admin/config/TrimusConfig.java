package io.trimus.admin.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.net.URI;
import java.time.Duration;

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
}
