package io.trimus.adapter.canary;

import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.adapter.AllowedRuntimes;
import io.trimus.adapter.container.ContainerPolicy;
import io.trimus.adapter.container.ProbeRunner;
import io.trimus.adapter.dispatch.RecentIds;
import io.trimus.adapter.egress.network.EgressNetworkSettings;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.lease.InstanceName;
import io.trimus.events.CanaryCheck;
import io.trimus.events.CanaryRequested;
import io.trimus.events.CanaryResult;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.adapter.AdapterType;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the egress canaries this instance took: each once (deduplicated on its canary id), at most
 * {@link #MAX_CONCURRENT} at once on threads of their own (never the run pool, never a company's share), the probe
 * sandbox from TRIMUS_EGRESS_CANARY_IMAGE with small limits, its output read into checks, and always one
 * {@link CanaryResult}: with the checks, or with the reason it could not run.
 */
@ApplicationScoped
public class CanaryProbes {

    /** Probes one instance runs at once; further ones wait in order. */
    static final int MAX_CONCURRENT = 2;
    /** Probes that may wait; past them a request is answered at once with the reason. */
    static final int MAX_WAITING = 64;
    /** The probe sandbox's limits: enough for busybox's sh, nslookup and nc, one try at a time. */
    static final ContainerPolicy.ProbeLimits LIMITS = new ContainerPolicy.ProbeLimits(64, 64L << 20, 0.5,
            Duration.ofSeconds(60));

    private static final Logger LOG = Logger.getLogger(CanaryProbes.class);

    private final ProbeRunner runner;
    private final CanaryResultPublisher results;
    private final DockerEngineSwitch engine;
    private final InstanceName instance;
    private final DockerDefaults defaults;
    private final EgressNetworkSettings network;
    private final EnsureEgressNetwork egressNetwork;
    private final String image;
    private final int proxyPort;
    private final String runtime;
    private final RecentIds<Boolean> seen = new RecentIds<>(4096);
    private final ThreadPoolExecutor pool;

    @Inject
    public CanaryProbes(ProbeRunner runner, CanaryResultPublisher results, DockerEngineSwitch engine,
                        InstanceName instance, EnsureEgressNetwork egressNetwork, TrimusConfig config) {
        this.runner = runner;
        this.results = results;
        this.engine = engine;
        this.instance = instance;
        this.defaults = DockerDefaults.from(config.docker());
        this.network = egressNetwork.settings();
        this.egressNetwork = egressNetwork;
        this.image = config.egress().canaryImage();
        this.proxyPort = config.egress().proxyPort();
        // a probe proves what the company's sandboxes get: TRIMUS_DOCKER_DEFAULT_RUNTIME's kernel and network path
        this.runtime = new AllowedRuntimes(config.docker().runtimes(), config.docker().defaultRuntime()).defaultRuntime();
        AtomicInteger threads = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(MAX_CONCURRENT, MAX_CONCURRENT, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(MAX_WAITING), r -> {
                    Thread t = new Thread(r, "trimus-canary-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Queues the probe of {@code request} unless this instance already took that canary; returns at once. */
    public void accept(CanaryRequested request) {
        if (request.canaryId() == null || request.companyId() == null) {
            LOG.warnf("ignored canary request %s without a canary_id or company_id", request.id());
            return;
        }
        synchronized (seen) {
            if (!seen.add(request.canaryId(), Boolean.TRUE)) {
                return;
            }
        }
        try {
            pool.execute(() -> results.publish(probe(request)));
        } catch (RejectedExecutionException full) {
            results.publish(failed(request, "the adapter instance already has " + MAX_WAITING
                    + " canaries waiting; this one was not run", null, List.of()));
        }
    }

    /** Runs the probe of {@code request} on the calling thread and says how it went. */
    CanaryResult probe(CanaryRequested request) {
        try {
            if (!engine.enabled()) {
                return failed(request, engine.refusal(AdapterType.DOCKER).orElseThrow(), null, List.of());
            }
            EnsureEgressNetwork.Status status = egressNetwork.status();
            String gateway = status.ready() ? status.network().gateway() : network.gateway();
            ProbeTargets targets = ProbeTargets.of(request, network.dnsDefault().orElse(gateway), proxyPort, gateway);
            RunRequested probe = new RunRequested(request.id() == null ? UUID.randomUUID() : request.id(),
                    request.canaryId(), request.companyId(), CanaryRequested.PROBE_AGENT_ID,
                    AdapterType.DOCKER.wireName(), null, null, null, request.requestedAt(), Map.of(), null);
            ContainerPolicy policy = ContainerPolicy.forProbe(probe, image, ProbeScript.command(), targets.env(),
                    defaults, network.name(), LIMITS).underRuntime(runtime);
            LOG.infof("canary %s of company %s: probe sandbox starting", request.canaryId(), request.companyId());
            return answer(request, targets, runner.run(probe, policy));
        } catch (ProbeTargets.Invalid invalid) {
            return failed(request, "the canary request cannot be probed: " + invalid.getMessage(), null, List.of());
        } catch (RuntimeException e) {
            LOG.errorf(e, "canary %s: the probe failed", request.canaryId());
            return failed(request, "the probe failed on the adapter service for a reason it did not expect; its log"
                    + " names it", null, List.of());
        }
    }

    /** The result of a probe that ran as far as {@code outcome} says. */
    private CanaryResult answer(CanaryRequested request, ProbeTargets targets, ProbeRunner.Outcome outcome) {
        if (outcome.exitCode() == null && outcome.state() != RunState.TIMED_OUT) {
            return failed(request, outcome.error() != null ? outcome.error() : "the probe sandbox did not run",
                    outcome.sandboxIp(), List.of());
        }
        ProbeReport.Reading reading = ProbeReport.read(outcome.output(), targets);
        String error = reading.error();
        if (outcome.state() == RunState.TIMED_OUT) {
            error = "the probe did not finish within " + LIMITS.timeout().toSeconds() + " s"
                    + (error == null ? "" : "; " + error);
        } else if (outcome.exitCode() != 0) {
            error = "the probe exited with code " + outcome.exitCode() + (error == null ? "" : "; " + error);
        }
        CanaryResult result = result(request, reading.checks(), error, outcome.sandboxIp());
        LOG.infof("canary %s of company %s: %s", request.canaryId(), request.companyId(), error != null ? error
                : result.breached() ? "breached" : "passed");
        return result;
    }

    private CanaryResult failed(CanaryRequested request, String error, String sandboxIp, List<CanaryCheck> checks) {
        LOG.warnf("canary %s of company %s: %s", request.canaryId(), request.companyId(), error);
        return result(request, checks, error, sandboxIp);
    }

    private CanaryResult result(CanaryRequested request, List<CanaryCheck> checks, String error, String sandboxIp) {
        return new CanaryResult(UUID.randomUUID(), request.canaryId(), request.companyId(), checks,
                error == null ? null : bounded(error), instance.get(), Instant.now(), sandboxIp);
    }

    /** An error as the result's schema bounds it (2000 characters). */
    private static String bounded(String error) {
        return error.length() <= 2000 ? error : error.substring(0, 1999) + "…";
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
