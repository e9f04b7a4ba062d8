package io.trimus.egress.config;

import io.trimus.commons.config.ShutdownBounds;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.trimus.commons.streams.StreamLimits;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Knobs of egress-service; environment names follow the Trimus operator docs (TRIMUS_EGRESS_DNS_ADDR …). */
@ConfigMapping(prefix = "trimus")
public interface TrimusConfig {

    /** The egress resolver and its anomaly pipeline. */
    Egress egress();

    /** run-service, which says who a bearer credential speaks for. */
    RunService runService();

    /** The anomaly stream's bounds: how often its caller is asked again, how many one credential holds open. */
    StreamLimits streams();

    /** run-service, asked {@code GET /api/me} for the caller of every API request. */
    interface RunService {
        /** Base URL of run-service (TRIMUS_RUN_SERVICE_URL, default http://127.0.0.1:8081). */
        @WithDefault("http://127.0.0.1:8081")
        java.net.URI url();

        /**
         * How long run-service may take to say who a caller is; past it the request is answered 503
         * (TRIMUS_RUN_SERVICE_TIMEOUT, default 3s).
         */
        @WithDefault("3s")
        Duration timeout();
    }

    /**
     * run-service's master key, 32 random bytes as base64 or 64 hex digits: the egress CA's private key is stored
     * encrypted under a key derived from it, and masked secrets reach this service sealed under its dispatch key. A
     * malformed key stops the service at start; without one the service runs, but the egress CA and masked secrets
     * are unavailable (their calls answer 503) (TRIMUS_ENCRYPTION_KEY, no default).
     */
    Optional<String> encryptionKey();

    /** The egress resolver and its anomaly pipeline. */
    interface Egress {
        /** DNS of the egress resolver. */
        Dns dns();

        /** Anomaly events of denied lookups. */
        Anomalies anomalies();

        /** The registry of sandbox addresses. */
        Sandboxes sandboxes();

        /** How each replica keeps its copy of the egress policy (allowlists, modes) current. */
        Policy policy();

        /** The egress proxy sandboxes reach allow-listed hosts through. */
        Proxy proxy();

        /** The per-run record of proxy connections: what a run talked to. */
        Connections connections();

        /** The egress CA: the certificates the proxy shows sandboxes for hosts of masked secrets. */
        Ca ca();

        /** Tunnelling through names: scores, threshold, action. */
        TunnellingSettings tunnelling();

        /** Canaries: a probe sandbox per company that proves the blocks hold. */
        CanarySettings canary();
    }

    /**
     * The egress CA, created at first start and kept encrypted under TRIMUS_ENCRYPTION_KEY, and the leaf
     * certificates it signs for the hosts the proxy terminates TLS for.
     */
    interface Ca {
        /**
         * How long a leaf certificate is valid (never past the CA's own end); a cached leaf with less than a day (or
         * half this validity, when shorter) left is issued anew (TRIMUS_EGRESS_CA_LEAF_VALIDITY).
         */
        @WithDefault("7d")
        Duration leafValidity();

        /**
         * Leaf certificates kept per CA, one per host name; beyond it the least recently used is dropped and issued
         * again when next asked for (TRIMUS_EGRESS_CA_LEAF_CACHE_SIZE, at least 1).
         */
        @WithDefault("1024")
        int leafCacheSize();
    }

    /**
     * The per-run record of proxy connections. The proxy hands each ended connection to a bounded in-memory buffer,
     * written to PostgreSQL in batches; a full buffer drops records rather than slow the proxy down.
     */
    interface Connections {
        /**
         * Connection records waiting for the database at most; when it is full further records are dropped, counted
         * in {@code trimus_egress_connections_dropped_total} and logged at most once a minute
         * (TRIMUS_EGRESS_CONNECTIONS_BUFFER).
         */
        @WithDefault("10000")
        int buffer();

        /**
         * Records written in one statement; as soon as this many wait they are written, fewer at the next flush
         * (TRIMUS_EGRESS_CONNECTIONS_BATCH_SIZE, 1 to 1000).
         */
        @WithDefault("256")
        int batchSize();

        /** How often waiting records are written (TRIMUS_EGRESS_CONNECTIONS_FLUSH_INTERVAL). */
        @WithDefault("500ms")
        Duration flushInterval();

        /**
         * Records of connections that started longer ago than this are deleted, by a job that runs every hour
         * (TRIMUS_EGRESS_CONNECTIONS_RETENTION).
         */
        @WithDefault("30d")
        Duration retention();
    }

    /** The egress proxy: explicit HTTP proxy (CONNECT and absolute-form) on the resolver's address. */
    interface Proxy {
        /**
         * Address ranges the proxy may dial although they are not public (private, CGNAT, link-local…), e.g. a test
         * network or a private service: {@code 10.20.0.0/16,fd00:1::/64}, a bare address meaning that address alone.
         * Matched against the IPv4 address an IPv6 form embeds, never against the form; loopback only through an
         * entry inside 127.0.0.0/8 or ::1, an address of the host itself only through a /32 or /128 entry naming it;
         * the unspecified address never. An entry that is no such range stops the service at start
         * (TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE, comma-separated CIDRs, default none: public addresses only).
         */
        Optional<List<String>> allowPrivate();

        /**
         * TCP port of the explicit HTTP proxy, on the same address as the resolver (TRIMUS_EGRESS_DNS_ADDR's host);
         * served only when the resolver is. 0: any free port (tests) (TRIMUS_EGRESS_PROXY_PORT).
         */
        @WithDefault("3128")
        int port();

        /**
         * TCP port of the transparent TLS listener on the resolver's address: the resolver answers an allow-listed
         * name's A query with its own address, so an unmodified client connects here, and the proxy reads the host
         * from the TLS ClientHello's server name (never terminating TLS) and tunnels to that host's port 443. -1: not
         * served, and then the resolver forwards allow-listed names to the upstream and hands out their real
         * addresses instead of steering them (clients can only go out through HTTPS_PROXY), 0: any free port (tests)
         * (TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT).
         */
        @WithDefault("443")
        int transparentHttpsPort();

        /**
         * The IPv4 address sandboxes reach the proxy at, which the resolver answers allow-listed names with. Default:
         * the resolver's own address (TRIMUS_EGRESS_DNS_ADDR's host); required when that is a wildcard such as
         * 0.0.0.0, e.g. the container's address on the egress network (compose) or the pod's IP (Kubernetes)
         * (TRIMUS_EGRESS_PROXY_ADDRESS).
         */
        Optional<String> address();

        /**
         * TCP port of the transparent plain-HTTP listener on the resolver's address: every request's Host header names
         * the host, which must stay the same on a kept-alive connection; it goes to that host's port 80. -1: not
         * served, 0: any free port (tests) (TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTP_PORT).
         */
        @WithDefault("80")
        int transparentHttpPort();

        /**
         * Destination ports a sandbox may reach through the proxy for a host a port-less allowlist entry lists; an
         * entry {@code host:port} opens that one port of that host besides. Any other port is refused with 403 and
         * anomaly {@code proxy_port_denied}. A CONNECT tunnel goes to 443, whose TLS ClientHello the proxy checks, or
         * to a port an entry names (tunnelled as is) (TRIMUS_EGRESS_PROXY_PORTS).
         */
        @WithDefault("443,80")
        List<Integer> ports();

        /**
         * Proxy connections one sandbox (one source address) may hold open at once; a further one is answered 429
         * and closed (TRIMUS_EGRESS_PROXY_MAX_CONNECTIONS_PER_SANDBOX).
         */
        @WithDefault("64")
        int maxConnectionsPerSandbox();

        /** A connection with no traffic either way for this long is closed (TRIMUS_EGRESS_PROXY_IDLE_TIMEOUT). */
        @WithDefault("5m")
        Duration idleTimeout();

        /**
         * A connection is closed after this long whatever its traffic; the default is the longest run
         * (TRIMUS_EGRESS_PROXY_TOTAL_TIMEOUT).
         */
        @WithDefault("24h")
        Duration totalTimeout();

        /** How long dialling the destination may take before the client gets 502 (TRIMUS_EGRESS_PROXY_CONNECT_TIMEOUT). */
        @WithDefault("10s")
        Duration connectTimeout();

        /**
         * How long a new connection may take to send its request head or TLS ClientHello, however slowly it
         * trickles; then it is closed, so a sandbox cannot hold its share of connections open by saying nothing
         * (TRIMUS_EGRESS_PROXY_HEAD_TIMEOUT).
         */
        @WithDefault("10s")
        Duration headTimeout();

        /**
         * Largest request head (request line and headers) the proxy reads; a longer one is answered 431 and the
         * connection closed (TRIMUS_EGRESS_PROXY_MAX_HEAD_BYTES).
         */
        @WithDefault("8192")
        int maxHeadBytes();

        /**
         * A PEM file of CA certificates the proxy trusts besides the system trust store when it re-establishes TLS to
         * a host of a masked secret (whose TLS it terminates), e.g. for a private service or a test server; unset: the
         * system trust store alone (TRIMUS_EGRESS_PROXY_UPSTREAM_CA_FILE).
         */
        Optional<String> upstreamCaFile();
    }

    /** The registry of sandbox addresses. */
    interface Sandboxes {
        /**
         * A registration older than this may be taken over by another run's registration of its address: it was left
         * by an adapter service that died for good and never deregistered it. Must exceed the longest run (24 h) with
         * room to spare, since a sandbox still running past it could be attributed to the run that takes its address
         * over (TRIMUS_EGRESS_SANDBOXES_REGISTRATION_MAX_AGE).
         */
        @WithDefault("25h")
        Duration registrationMaxAge();

        /**
         * How often a replica reloads every stored registration although it follows each change as the database
         * announces it: a safety net for an announcement lost in a way the replica did not notice (a lost listening
         * connection is noticed and reloads at once). Positive (TRIMUS_EGRESS_SANDBOXES_RECONCILE_INTERVAL).
         */
        @WithDefault("60s")
        Duration reconcileInterval();
    }

    /** How each replica keeps its copy of the egress policy (every company's allowlist and mode) current. */
    interface Policy {
        /**
         * How often a replica reads the stored policy revision to confirm its copy current, although it follows each
         * change as the database announces it: a change whose announcement was lost reaches it within this period.
         * Positive (TRIMUS_EGRESS_POLICY_CHECK_INTERVAL).
         */
        @WithDefault("1s")
        Duration checkInterval();

        /**
         * How long a replica's copy counts as current after it last confirmed it; past that (the database does not
         * answer) its resolver answers SERVFAIL and its proxy 503 {@code policy_stale} to sandboxes, and its
         * readiness is DOWN, rather than decide by a policy another replica may have changed. Longer than the check
         * interval (TRIMUS_EGRESS_POLICY_STALE_AFTER).
         */
        @WithDefault("3s")
        Duration staleAfter();

        /** The whole policy of a company as one document (GET|PUT …/egress/policy-document). */
        Document document();
    }

    /** Bounds of a policy document: the company's mode, list and every agent's own list, read and applied at once. */
    interface Document {
        /**
         * Largest document a PUT may send, in bytes, JSON or YAML; a longer one is refused with 413, before it is
         * read when it declares its length (TRIMUS_EGRESS_POLICY_DOCUMENT_MAX_BYTES, 1 KiB to 16 MiB).
         */
        @WithDefault("1048576")
        int maxBytes();

        /**
         * Agents with a list of their own one document may hold; each list holds at most 1000 entries, as through
         * the per-agent API (TRIMUS_EGRESS_POLICY_DOCUMENT_MAX_AGENTS, at least 1).
         */
        @WithDefault("1000")
        int maxAgents();
    }

    /** DNS of the egress resolver. */
    interface Dns {
        /**
         * host:port the resolver serves on, UDP and TCP (TRIMUS_EGRESS_DNS_ADDR). Unset: no DNS server is started.
         * On the egress network this is its gateway, e.g. {@code 172.30.0.1:53}.
         */
        Optional<String> addr();

        /**
         * host:port of the upstream resolver allowed names are forwarded to (TRIMUS_EGRESS_DNS_UPSTREAM).
         * Default: the first nameserver of /etc/resolv.conf.
         */
        Optional<String> upstream();

        /**
         * Event loops that serve the resolver (TRIMUS_EGRESS_DNS_LISTENERS), each with a UDP socket of its own on the
         * address (SO_REUSEPORT) and a share of the TCP connections. Default: the number of CPUs. Needs the native
         * (epoll) transport; without it one event loop serves.
         */
        Optional<Integer> listeners();

        /** How long the upstream may take to answer before the client gets SERVFAIL (TRIMUS_EGRESS_DNS_UPSTREAM_TIMEOUT). */
        @WithDefault("2s")
        Duration upstreamTimeout();

        /** Answers kept in the TTL cache at most (TRIMUS_EGRESS_DNS_CACHE_MAX_ENTRIES). */
        @WithDefault("10000")
        int cacheMaxEntries();

        /** Longest time an answer is cached, whatever its TTL says (TRIMUS_EGRESS_DNS_CACHE_MAX_TTL). */
        @WithDefault("5m")
        Duration cacheMaxTtl();

        /**
         * Upstream queries in flight at once; beyond it a client gets SERVFAIL instead of opening yet another socket
         * (TRIMUS_EGRESS_DNS_UPSTREAM_MAX_IN_FLIGHT).
         */
        @WithDefault("1024")
        int upstreamMaxInFlight();

        /**
         * Open DNS-over-TCP connections at most; a further one is closed at once
         * (TRIMUS_EGRESS_DNS_TCP_MAX_CONNECTIONS).
         */
        @WithDefault("256")
        int tcpMaxConnections();

        /** A DNS-over-TCP connection with no traffic for this long is closed (TRIMUS_EGRESS_DNS_TCP_IDLE_TIMEOUT). */
        @WithDefault("10s")
        Duration tcpIdleTimeout();

        /**
         * Questions a second one sandbox (one source address) may ask, UDP and TCP together, sustained; beyond its
         * budget a question is answered REFUSED and counted as {@code decision="rate_limited"}, with no anomaly and
         * at most one log line per source every 10 s. 0 turns the budget off (TRIMUS_EGRESS_DNS_PER_SANDBOX_QPS).
         */
        @WithDefault("200")
        int perSandboxQps();

        /**
         * Questions a sandbox that has been quiet may ask at once before its per-second budget applies
         * (TRIMUS_EGRESS_DNS_PER_SANDBOX_BURST).
         */
        @WithDefault("400")
        int perSandboxBurst();

        /**
         * Open DNS-over-TCP connections of one sandbox (one source address) at most; a further one is closed at
         * once and counted in {@code trimus_egress_dns_tcp_refused_total} (label {@code limit=per_sandbox}), while
         * other sandboxes can still connect (TRIMUS_EGRESS_DNS_PER_SANDBOX_TCP_CONNECTIONS).
         */
        @WithDefault("8")
        int perSandboxTcpConnections();
    }

    /** Anomaly events of denied lookups. */
    interface Anomalies {
        /**
         * Denials of one (sandbox, name, reason) within this window become one event with a count, so a flood
         * becomes counted rows, not a million rows (TRIMUS_EGRESS_ANOMALIES_WINDOW).
         */
        @WithDefault("10s")
        Duration window();

        /** Distinct (sandbox, name, reason) keys tracked at once; beyond it the oldest are flushed early (TRIMUS_EGRESS_ANOMALIES_MAX_KEYS). */
        @WithDefault("100000")
        int maxKeys();

        /**
         * Distinct names per sandbox (per source address for an unattributed one) and window that get an event of
         * their own. Beyond it, that sandbox's denials of further names fold into one overflow event per window and
         * (type, reason): qname {@code *.<suffix all the names share>} (at least two labels) or {@code *}, count =
         * exactly the denials folded. A flood of fresh names (tunnelling, scanning) thus stays a few counted rows
         * (TRIMUS_EGRESS_ANOMALIES_MAX_NAMES_PER_SANDBOX; 0 folds every name).
         */
        @WithDefault("100")
        int maxNamesPerSandbox();
    }

    /** Stopping on SIGTERM: how long the stop may wait for what is away (docs/scaling.md, "Stopping"). */
    Shutdown shutdown();

    /** The bounds of a stop, declared once in commons. */
    interface Shutdown extends ShutdownBounds {
    }
}
