package io.trimus.run.config;

import io.trimus.commons.config.ShutdownBounds;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import io.trimus.commons.config.DockerAllowances;
import io.trimus.commons.config.DockerCeilings;
import io.trimus.commons.streams.StreamLimits;
import io.trimus.events.adapter.LocalAdaptersGate;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** Knobs of run-service; environment names follow the Trimus operator docs (TRIMUS_OUTBOX_POLL_INTERVAL …). */
@ConfigMapping(prefix = "trimus")
public interface TrimusConfig {

    /** Publishing of the transactional outbox. */
    Outbox outbox();

    /** The first operator of a fresh deployment. */
    Bootstrap bootstrap();

    /** Dashboard sign-in sessions. */
    Session session();

    /** API tokens and setup links. */
    Auth auth();

    /** The dashboard, whose address setup links point to. */
    Dashboard dashboard();

    /** The first operator of a fresh deployment: no default password ever exists. */
    interface Bootstrap {
        /**
         * An operator API token with exactly this value (at least 32 characters) is ensured at every start, for
         * scripts and CI driving a fresh stack (TRIMUS_BOOTSTRAP_OPERATOR_TOKEN, default none: unset, no such token
         * exists and one set before is revoked).
         */
        Optional<String> operatorToken();

        /**
         * Email of the first operator account (TRIMUS_BOOTSTRAP_OPERATOR_EMAIL, default none): created at start if
         * missing, and while it has no password every start writes a fresh one-time setup link for it to
         * TRIMUS_BOOTSTRAP_SETUP_LINK_FILE (never to the log).
         */
        Optional<String> operatorEmail();

        /**
         * Where the bootstrap operator's setup link is written at start while it has no password: a file readable by
         * run-service's user only, replaced at each start and deleted once a password is set
         * (TRIMUS_BOOTSTRAP_SETUP_LINK_FILE, default /tmp/trimus-operator-setup-link; ./trimus up uses
         * .trimus/operator-setup-link).
         */
        @WithDefault("/tmp/trimus-operator-setup-link")
        String setupLinkFile();
    }

    /** Dashboard sign-in sessions. */
    interface Session {
        /** How long a sign-in lasts (TRIMUS_SESSION_TTL, default 12h). */
        @WithDefault("12h")
        Duration ttl();
    }

    /** API tokens and setup links. */
    interface Auth {
        /** How long a setup link (first password) stays valid (TRIMUS_AUTH_SETUP_LINK_TTL, default 72h). */
        @WithDefault("72h")
        Duration setupLinkTtl();

        /** Most unrevoked API tokens one company may hold (TRIMUS_AUTH_MAX_COMPANY_TOKENS, default 100). */
        @WithDefault("100")
        int maxCompanyTokens();

        /** Most members one company may have (TRIMUS_AUTH_MAX_COMPANY_MEMBERS, default 1000). */
        @WithDefault("1000")
        int maxCompanyMembers();

        /**
         * bcrypt cost of stored passwords (TRIMUS_AUTH_BCRYPT_COST, default 11, 2^11 rounds: about 0.1 to 0.2 s per
         * check on a small core).
         */
        @WithDefault("11")
        int bcryptCost();

        /**
         * Most password checks (bcrypt: sign-ins and first passwords) running at once; the others wait their turn,
         * taken in turn by source (peer address, then the X-Forwarded-For it claims) so one source cannot hold them
         * all (TRIMUS_AUTH_MAX_CONCURRENT_PASSWORD_CHECKS, default 4).
         */
        @WithDefault("4")
        int maxConcurrentPasswordChecks();

        /**
         * Most password checks waiting for their turn; when full, a newcomer pushes out the newest waiter of the
         * source with the most waiting, or gets 429 when its own source has the most
         * (TRIMUS_AUTH_MAX_WAITING_PASSWORD_CHECKS, default 64).
         */
        @WithDefault("64")
        int maxWaitingPasswordChecks();

        /**
         * Failed password sign-ins to one email after which its sign-ins are refused (429) until
         * TRIMUS_AUTH_SIGN_IN_LOCKOUT has passed since the first of them (TRIMUS_AUTH_MAX_SIGN_IN_FAILURES, default
         * 5). API tokens are not affected.
         */
        @WithDefault("5")
        int maxSignInFailures();

        /** The window of TRIMUS_AUTH_MAX_SIGN_IN_FAILURES (TRIMUS_AUTH_SIGN_IN_LOCKOUT, default 15m). */
        @WithDefault("15m")
        Duration signInLockout();
    }

    /** The dashboard, whose address setup links point to. */
    interface Dashboard {
        /** The dashboard's public base URL (TRIMUS_DASHBOARD_URL, default http://127.0.0.1:8080). */
        @WithDefault("http://127.0.0.1:8080")
        URI url();
    }

    /** Limits on what a run stores and returns. */
    Runs run();

    /**
     * The key company secrets are encrypted with, 32 random bytes as base64 or hex (TRIMUS_ENCRYPTION_KEY); no
     * default: the service refuses to start without a strong one. The dispatch key that seals run secrets in transit
     * and signs remote runs is derived from it; the adapter service needs the same value (or that dispatch key), a
     * worker only the dispatch key.
     */
    Optional<String> encryptionKey();

    /**
     * Whether claude_local / codex_local agents (host processes, no isolation) may be created (TRIMUS_LOCAL_ADAPTERS):
     * off (default) refuses them with 400, warn and on accept them.
     */
    @WithDefault("off")
    LocalAdaptersGate localAdapters();

    /** The remote workers listed by GET /api/workers. */
    Workers workers();

    /** What container agents may ask for: the adapter service reads the same variables and checks again. */
    Docker docker();

    /** egress-service, asked for a company's allowlist when a sandbox agent is created. */
    Egress egress();

    /** egress-service, asked for a company's allowlist when a sandbox agent is created. */
    interface Egress {
        /**
         * Base URL of egress-service's API (TRIMUS_EGRESS_SERVICE_URL, default {@code http://127.0.0.1:8083}); the
         * allowlist it holds decides whether a claude_sandbox / codex_sandbox agent can reach its provider.
         */
        @WithDefault("http://127.0.0.1:8083")
        URI serviceUrl();

        /**
         * How long fetching a company's allowlist may take, connect included; past it the agent is still created and
         * its response says the allowlist could not be checked (TRIMUS_EGRESS_ALLOWLIST_TIMEOUT, default 2s).
         */
        @WithDefault("2s")
        Duration allowlistTimeout();
    }

    /** What container agents may ask for; the adapter service reads the same variables and checks every run again. */
    interface Docker extends DockerCeilings, DockerAllowances {
    }

    /** The remote workers listed by GET /api/workers. */
    interface Workers {
        /** A worker silent this long is no longer listed (TRIMUS_WORKERS_FORGET_AFTER, default 1h). */
        @WithDefault("1h")
        Duration forgetAfter();
    }

    /** Publishing of the transactional outbox. */
    interface Outbox {
        /** How often the relay looks for unpublished events besides being woken on each write (TRIMUS_OUTBOX_POLL_INTERVAL). */
        @WithDefault("1s")
        Duration pollInterval();

        /** Events published per relay pass (TRIMUS_OUTBOX_BATCH_SIZE). */
        @WithDefault("50")
        int batchSize();

        /** How long one publish may wait for the broker before the relay retries later (TRIMUS_OUTBOX_SEND_TIMEOUT). */
        @WithDefault("15s")
        Duration sendTimeout();

        /**
         * Longest wait between two attempts at an event the broker could not take for a reason that may pass (broker
         * down, timeout); the wait doubles from the poll interval up to this, and other rows go out meanwhile
         * (TRIMUS_OUTBOX_RETRY_MAX_BACKOFF).
         */
        @WithDefault("30s")
        Duration retryMaxBackoff();

        /**
         * Largest event, key plus JSON in bytes, that a run request may produce (TRIMUS_OUTBOX_MAX_RECORD_BYTES): a
         * request whose run.requested event, sealed secrets included, is larger is refused with 413 and nothing is
         * stored. The default is Kafka's default max.request.size (1048576) less 8 KiB for the CloudEvent headers and
         * the batch framing; lower it when the broker's message.max.bytes (or the topic's max.message.bytes) is lower.
         */
        @WithDefault("1040384")
        int maxRecordBytes();
    }

    /** Limits on what a run stores and returns. */
    interface Runs {
        /** Bytes of output kept per run: the tail, so the end of a log survives (TRIMUS_RUN_OUTPUT_MAX_BYTES). */
        @WithDefault("65536")
        int outputMaxBytes();

        /** Largest accepted run input in bytes (TRIMUS_RUN_INPUT_MAX_BYTES). */
        @WithDefault("65536")
        int inputMaxBytes();

        /** Largest accepted issue body in bytes (TRIMUS_RUN_ISSUE_BODY_MAX_BYTES); the title is at most 512 characters. */
        @WithDefault("65536")
        int issueBodyMaxBytes();

        /** Largest page of the run list (TRIMUS_RUN_LIST_MAX_LIMIT). */
        @WithDefault("200")
        int listMaxLimit();

        /**
         * A DISPATCHED or RUNNING run without news for this long ends FAILED, so no run stays in progress forever
         * when the process holding it died without a word (TRIMUS_RUN_STALE_AFTER, default 25h: longer than the
         * longest timeout an operator can allow, TRIMUS_DOCKER_MAX_TIMEOUT_SEC at most 24 h, plus time queued for a
         * slot; a shorter value is warned about at boot).
         */
        @WithDefault("25h")
        Duration staleAfter();

        /** How often in-progress runs are checked for staleness (TRIMUS_RUN_STALE_CHECK_INTERVAL, default 1m). */
        @WithDefault("1m")
        Duration staleCheckInterval();

        /**
         * How often the runs of lost adapter processes are looked for and recovered (TRIMUS_RUN_RECOVERY_INTERVAL,
         * default 5s). A process is lost three of its lease intervals after its last beat (TRIMUS_ADAPTER_LEASE_INTERVAL
         * on the adapter service, default 2s), so a run is recovered within about 15 s.
         */
        @WithDefault("5s")
        Duration recoveryInterval();

        /**
         * How often run-service publishes its own observer beat on trimus.adapter.leases; reading it back tells it
         * every adapter beat published before has been read (TRIMUS_RUN_OBSERVER_INTERVAL, default 1s).
         */
        @WithDefault("1s")
        Duration observerInterval();

        /**
         * The shortest grace an adapter process gets before its silence on trimus.adapter.leases counts and its runs
         * are recovered, whatever its own lease interval (three intervals, 6 s at the adapter's default 2 s) would
         * give (TRIMUS_RUN_MIN_LEASE_GRACE, default 10s). A shorter value recovers runs sooner but takes a process
         * whose beats are held up (a long GC pause, a slow broker) for lost sooner too.
         */
        @WithDefault("10s")
        Duration minLeaseGrace();

        /**
         * How long a run a live adapter process holds must be left out of its beats before it is judged let go (FAILED
         * once started, else dispatched again): its terminal status, read by another consumer that can be seconds
         * behind after a broker restart, ends it first (TRIMUS_RUN_LET_GO_GRACE, default 30s).
         */
        @WithDefault("30s")
        Duration letGoGrace();

        /**
         * How many times a run whose holder was lost before starting it is dispatched in all; after that it ends
         * FAILED (TRIMUS_RUN_MAX_DISPATCH_ATTEMPTS, default 3).
         */
        @WithDefault("3")
        int maxDispatchAttempts();
    }

    /** Stopping on SIGTERM: how long the stop may wait for what is away (docs/scaling.md, "Stopping"). */
    Shutdown shutdown();

    /** Agents served over A2A (docs/a2a.md, "Serving agents over A2A"). */
    A2a a2a();

    /** Open A2A streams and blocking sends: how often their caller is asked again, how many one credential holds. */
    StreamLimits streams();

    /** Agents served over A2A: where callers reach them and the bounds of what one caller can hold open. */
    interface A2a {
        /**
         * The base URL callers reach run-service at, e.g. {@code https://trimus.example.com}; a published agent's A2A
         * url is {@code <it>/a2a/companies/{company_id}/agents/{agent_id}} (TRIMUS_A2A_PUBLIC_URL, default none:
         * {@code http://<quarkus.http.host>:<the port run-service listens on>}, localhost for a wildcard host, which
         * only callers on the same host reach, so set it wherever others call. Never the request's Host header, which
         * any caller chooses).
         */
        Optional<URI> publicUrl();

        /** Largest JSON-RPC request body in bytes; larger ones get 413 (TRIMUS_A2A_MAX_REQUEST_BYTES, default 1048576). */
        @WithDefault("1048576")
        int maxRequestBytes();

        /**
         * How long message/send with configuration.blocking=true waits for the run to end before answering with the
         * task as it stands (TRIMUS_A2A_BLOCKING_WAIT, default 30s).
         */
        @WithDefault("30s")
        Duration blockingWait();

        /**
         * How often an open stream (message/stream, tasks/resubscribe), a blocking send or a cancel reads its run
         * from the database even when no change was pushed to it: the safety net behind the status consumer's push,
         * for a change stored on another replica just after its signal arrived (TRIMUS_A2A_STREAM_POLL_INTERVAL,
         * default 5s).
         */
        @WithDefault("5s")
        Duration streamPollInterval();

        /**
         * Longest life of one stream; a run still going then ends its stream without a final event and the caller
         * resubscribes or polls tasks/get (TRIMUS_A2A_STREAM_MAX_LIFE, default 1h).
         */
        @WithDefault("1h")
        Duration streamMaxLife();

        /**
         * How long an open stream stays quiet before it sends a keep-alive (an SSE comment line, which SSE clients
         * skip), so a caller's read timeout and idle proxies do not end a stream while its run is quiet
         * (TRIMUS_A2A_STREAM_KEEPALIVE, default 5s).
         */
        @WithDefault("5s")
        Duration streamKeepalive();

        /**
         * Most streams open at once for one company on one run-service instance; one more gets a JSON-RPC error
         * (TRIMUS_A2A_MAX_STREAMS_PER_COMPANY, default 20).
         */
        @WithDefault("20")
        int maxStreamsPerCompany();
    }

    /** The bounds of a stop, declared once in commons. */
    interface Shutdown extends ShutdownBounds {
    }
}
