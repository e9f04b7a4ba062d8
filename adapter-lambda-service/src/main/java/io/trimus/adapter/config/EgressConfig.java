package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** The egress network sandboxes join and the egress-service they are registered with (DESIGN.md §6). */
public interface EgressConfig {
    /** The Docker network the adapter ensures at boot. */
    EgressNetworkConfig network();

    /**
     * The DNS server written into every container on the egress network, i.e. the Trimus resolver
     * (TRIMUS_EGRESS_DNS_DEFAULT, default: the egress network's gateway).
     */
    Optional<String> dnsDefault();

    /**
     * Base URL of egress-service, which must know a sandbox's address before the sandbox starts
     * (TRIMUS_EGRESS_SERVICE_URL, default {@code http://127.0.0.1:8083}).
     */
    @WithDefault("http://127.0.0.1:8083")
    URI serviceUrl();

    /**
     * The credential sandbox registrations present to egress-service when this service holds no
     * TRIMUS_ENCRYPTION_KEY (a worker whose sandboxes join an egress network): {@code ./trimus service-credential}
     * prints it (TRIMUS_EGRESS_SERVICE_CREDENTIAL, default: derived from TRIMUS_ENCRYPTION_KEY, else none).
     */
    Optional<String> serviceCredential();

    /**
     * How long registering or deregistering a sandbox with egress-service may take, connect included; past it
     * the run fails and its container never starts (TRIMUS_EGRESS_REGISTRATION_TIMEOUT, default 5s).
     */
    @WithDefault("5s")
    Duration registrationTimeout();

    /**
     * Where the adapter asks the resolver a probe question before each sandbox starts, {@code host:port}; a
     * sandbox whose resolver does not answer never starts (TRIMUS_EGRESS_RESOLVER_CHECK_ADDR, default: the
     * DNS address above, port 53).
     */
    Optional<String> resolverCheckAddr();

    /**
     * How long a good answer to that probe is trusted, so a burst of runs costs one round trip; 0 asks before every
     * sandbox (TRIMUS_EGRESS_RESOLVER_CHECK_TRUST, default 5s).
     */
    @WithDefault("5s")
    Duration resolverCheckTrust();

    /**
     * Port of egress-service's explicit HTTP proxy on the resolver's address; every container on the egress
     * network gets HTTPS_PROXY / HTTP_PROXY pointing there (TRIMUS_EGRESS_PROXY_PORT, default 3128).
     */
    @WithDefault("3128")
    int proxyPort();

    /**
     * Where the adapter sends the proxy check before each sandbox starts, {@code host:port}; a sandbox whose proxy
     * does not answer never starts (TRIMUS_EGRESS_PROXY_CHECK_ADDR, default: the DNS address above, the proxy
     * port).
     */
    Optional<String> proxyCheckAddr();

    /**
     * How long a good answer to that check is trusted, so a burst of runs costs one round trip; 0 checks before every
     * sandbox (TRIMUS_EGRESS_PROXY_CHECK_TRUST, default 5s).
     */
    @WithDefault("5s")
    Duration proxyCheckTrust();

    /**
     * How long a sandbox run waits for the resolver, the proxy and the sandbox registry of egress-service to
     * answer (e.g. while egress-service is still starting) before it fails with the last reason
     * (TRIMUS_EGRESS_READY_TIMEOUT, default 30s).
     */
    @WithDefault("30s")
    Duration readyTimeout();

    /**
     * How often the registration of a sandbox holding masked secrets is sent to egress-service again while the
     * run lives, so an egress-service that restarted (it keeps the masks in memory only) has them back within
     * this period (TRIMUS_EGRESS_MASKS_REFRESH, default 5s).
     */
    @WithDefault("5s")
    Duration masksRefresh();

    /**
     * The image of an egress canary's probe sandbox, which must hold a busybox with {@code sh}, {@code nslookup},
     * {@code nc} and {@code timeout}; never pulled: a canary fails with the reason when the engine lacks it
     * (TRIMUS_EGRESS_CANARY_IMAGE, default {@code trimus/busybox:local}, the image {@code ./trimus up} builds).
     */
    @WithDefault("trimus/busybox:local")
    String canaryImage();
}
