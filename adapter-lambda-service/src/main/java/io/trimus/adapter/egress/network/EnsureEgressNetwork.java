package io.trimus.adapter.egress.network;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Network;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.engine.EngineErrors;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Makes sure the egress network exists (DESIGN.md §6): at boot, on a scheduler thread, retried with backoff
 * until it succeeds. Creates it when missing, internal, with its own subnet and gateway, inter-container traffic off,
 * a fixed bridge name and the label {@code trimus.managed=true}. A network of that name that is already there is
 * never deleted or altered: it is used as it is when it is internal with inter-container traffic off (with a loud
 * warning for every other difference from the configuration), and otherwise the egress network stays refused, so no
 * sandbox joins a network that could reach anything or another sandbox.
 */
@ApplicationScoped
public class EnsureEgressNetwork {

    private static final Logger LOG = Logger.getLogger(EnsureEgressNetwork.class);
    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration LAST_RETRY = Duration.ofSeconds(30);
    private static final String JOB = "trimus-egress-network";
    private static final String TICK = "1s";

    private final DockerClient docker;
    private final EgressNetworkSettings settings;
    private final String host;
    /** Calls {@link #tick()} every second; null outside CDI, where the owner calls it (unit tests). */
    private final Scheduler scheduler;
    private volatile Status status;
    /** Whether attempts go on until the network is ready; guarded by this. */
    private boolean ensuring;
    private long nextAttemptAt;
    private int failures;

    /**
     * Whether sandboxes may join the egress network now.
     *
     * @param network the network they join, when ready
     * @param problem why they may not, when not ready
     * @param refused the network exists and breaks the egress promise (not internal, inter-container traffic on…):
     *                it stays refused until the operator changes it, so runs needing it are REJECTED, not FAILED
     */
    public record Status(EgressNetwork network, String problem, boolean refused) {

        static Status ready(EgressNetwork network) {
            return new Status(Objects.requireNonNull(network), null, false);
        }

        static Status notReady(String problem) {
            return new Status(null, Objects.requireNonNull(problem), false);
        }

        static Status refused(String problem) {
            return new Status(null, Objects.requireNonNull(problem), true);
        }

        public boolean ready() {
            return network != null;
        }
    }

    @Inject
    public EnsureEgressNetwork(DockerClient docker, TrimusConfig config, Scheduler scheduler) {
        this.settings = EgressNetworkSettings.from(config.egress());
        this.host = config.docker().host();
        this.docker = docker;
        this.scheduler = scheduler;
        this.status = Status.notReady("the adapter service has not checked it yet");
    }

    /** The configured network. */
    public EgressNetworkSettings settings() {
        return settings;
    }

    /** The last known state; never blocks. */
    public Status status() {
        return status;
    }

    void onStart(@Observes StartupEvent event, DockerEngineSwitch engine) {
        if (!engine.enabled()) {
            status = Status.notReady("this adapter service has no Docker engine (TRIMUS_DOCKER_ENABLED=false)");
            return;
        }
        start();
    }

    /** Starts ensuring the network on a scheduler thread, retrying until it is ready; returns at once. */
    public synchronized void start() {
        if (ensuring) {
            return;
        }
        ensuring = true;
        failures = 0;
        nextAttemptAt = System.nanoTime();
        if (scheduler != null && scheduler.getScheduledJob(JOB) == null) {
            // the job ticks every second; the backoff between attempts is decided in tick()
            scheduler.newJob(JOB)
                    .setInterval(TICK)
                    .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                    .setTask(execution -> tick())
                    .schedule();
        }
    }

    /** An attempt when one is due: at once, then after 1 s, doubling up to 30 s, until the network is ready. */
    void tick() {
        synchronized (this) {
            if (!ensuring || System.nanoTime() - nextAttemptAt < 0) {
                return;
            }
        }
        boolean ready = attempt().ready();
        synchronized (this) {
            if (ready) {
                ensuring = false;
                return;
            }
            long seconds = Math.min(LAST_RETRY.toSeconds(), FIRST_RETRY.toSeconds() << Math.min(failures, 5));
            failures++;
            nextAttemptAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        }
    }

    /**
     * One attempt, blocking: finds the network by its exact name or creates it, and decides whether sandboxes may
     * join it.
     */
    public synchronized Status attempt() {
        Status next;
        try {
            next = findOrCreate();
        } catch (ConflictException raced) {
            next = Status.notReady("another process created network " + settings.name() + " at the same moment;"
                    + " checking it again");
        } catch (RuntimeException e) {
            next = Status.notReady(EngineErrors.describe(e, host, "create the egress network " + settings.name()));
        }
        report(next);
        status = next;
        return next;
    }

    /**
     * The state after checking that a ready network still exists; a network removed meanwhile makes it not ready and
     * starts ensuring again. Blocking (one engine call).
     */
    public Status verify() {
        Status current = status;
        if (!current.ready()) {
            return current;
        }
        try {
            docker.inspectNetworkCmd().withNetworkId(current.network().id()).exec();
            return current;
        } catch (NotFoundException gone) {
            lost(current, "network " + settings.name() + " was removed from the Docker engine; creating it again");
            return status;
        }
    }

    /**
     * Records that the ready network is gone or was replaced (seen by a run): not ready until it is ensured again.
     *
     * @param seen the state the caller saw; nothing happens when it is no longer the current one
     */
    public void lost(Status seen, String why) {
        synchronized (this) {
            if (status != seen || !seen.ready()) {
                return;
            }
            Status next = Status.notReady(why);
            report(next);
            status = next;
        }
        start();
    }

    @PreDestroy
    synchronized void stop() {
        ensuring = false;
        if (scheduler != null && scheduler.getScheduledJob(JOB) != null) {
            scheduler.unscheduleJob(JOB);
        }
    }

    private Status findOrCreate() {
        List<Network> named = docker.listNetworksCmd().withNameFilter(settings.name()).exec().stream()
                .filter(n -> settings.name().equals(n.getName())).toList();
        if (named.size() > 1) {
            return Status.notReady(named.size() + " Docker networks are named " + settings.name()
                    + "; Trimus cannot tell which one is the egress network: remove all but one");
        }
        boolean created = named.isEmpty();
        Network network = created
                ? docker.inspectNetworkCmd().withNetworkId(create()).exec()
                : named.get(0);
        EgressNetwork egress = EgressNetwork.of(network);
        if (created) {
            LOG.infof("created egress network %s: subnet %s, gateway %s, internal, inter-container traffic off,"
                    + " bridge %s", egress.name(), egress.subnet(), egress.gateway(), egress.bridgeName());
            return Status.ready(egress);
        }
        String refusal = egress.refusal();
        if (refusal != null) {
            return Status.refused(refusal);
        }
        List<String> differences = egress.differencesFrom(settings);
        if (!differences.isEmpty()) {
            LOG.warnf("egress network %s already exists and differs from the configuration: %s. Trimus never alters"
                    + " a network it did not create and uses this one as it is (sandbox addresses from %s, DNS %s);"
                    + " remove it to have it created as configured", egress.name(), String.join("; ", differences),
                    egress.subnet(), settings.dnsDefault().orElse(egress.gateway()));
        }
        return Status.ready(egress);
    }

    private String create() {
        return docker.createNetworkCmd()
                .withName(settings.name())
                .withDriver("bridge")
                .withCheckDuplicate(true)
                .withInternal(true)
                // IPv4 only: sandbox addresses, registration and the firewall know nothing of IPv6
                .withEnableIpv6(false)
                .withIpam(new Network.Ipam().withDriver("default").withConfig(new Network.Ipam.Config()
                        .withSubnet(settings.subnet().toString())
                        .withGateway(settings.gateway())))
                .withOptions(settings.driverOptions())
                .withLabels(Map.of(EgressNetworkSettings.LABEL_MANAGED, "true"))
                .exec()
                .getId();
    }

    /** Logs a change of state once, not on every retry. */
    private void report(Status next) {
        Status previous = status;
        if (next.ready()) {
            if (!previous.ready()) {
                LOG.infof("egress network %s (%s) is ready", next.network().name(), next.network().id());
            }
        } else if (!next.problem().equals(previous.problem())) {
            LOG.errorf("egress network %s is not ready: %s; runs on it fail until it is", settings.name(),
                    next.problem());
        }
    }
}
