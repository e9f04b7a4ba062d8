package io.trimus.adapter.egress.registry;

import io.trimus.events.SandboxRegistration;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Sends the confirming registration of each sandbox holding masked secrets to egress-service again every
 * TRIMUS_EGRESS_MASKS_REFRESH while its run lives: egress-service keeps masks in memory only, so one that restarted
 * gets them back within a period. A failed refresh is logged (never with the registration's masks) and tried again
 * the next period. Stopping waits for a refresh in flight, so none can follow the deregistration.
 */
public final class RegistrationRefresh {

    private static final Logger LOG = Logger.getLogger(RegistrationRefresh.class);

    private final EgressServiceClient egressService;
    private final Duration period;
    private final Map<UUID, Sandbox> sandboxes = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService timer;

    public RegistrationRefresh(EgressServiceClient egressService, Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_MASKS_REFRESH must be positive, got " + period);
        }
        this.egressService = egressService;
        this.period = period;
    }

    /** Refreshes {@code registration} of the sandbox at {@code ip} from one period from now on. */
    public void start(String ip, SandboxRegistration registration) {
        Sandbox sandbox = new Sandbox(ip, registration);
        Sandbox before = sandboxes.put(registration.runId(), sandbox);
        if (before != null) {
            before.stop();
        }
        sandbox.schedule(timer().scheduleWithFixedDelay(sandbox::refresh, period.toMillis(), period.toMillis(),
                TimeUnit.MILLISECONDS));
    }

    /** Stops the refresh of the run's sandbox, waiting for one in flight; nothing when there is none. */
    public void stop(UUID runId) {
        Sandbox sandbox = sandboxes.remove(runId);
        if (sandbox != null) {
            sandbox.stop();
        }
    }

    public void shutdown() {
        ScheduledExecutorService running = timer;
        if (running != null) {
            running.shutdownNow();
        }
    }

    private ScheduledExecutorService timer() {
        ScheduledExecutorService built = timer;
        if (built == null) {
            synchronized (this) {
                if (timer == null) {
                    timer = Executors.newScheduledThreadPool(2, r -> {
                        Thread t = new Thread(r, "trimus-egress-masks-refresh");
                        t.setDaemon(true);
                        return t;
                    });
                }
                built = timer;
            }
        }
        return built;
    }

    /** One sandbox's refresh; its lock keeps a refresh and the stop apart. */
    private final class Sandbox {
        private final String ip;
        private final SandboxRegistration registration;
        private ScheduledFuture<?> future;
        private boolean stopped;
        private boolean failing;

        Sandbox(String ip, SandboxRegistration registration) {
            this.ip = ip;
            this.registration = registration;
        }

        synchronized void schedule(ScheduledFuture<?> scheduled) {
            if (stopped) {
                scheduled.cancel(false);
            }
            future = scheduled;
        }

        synchronized void refresh() {
            if (stopped) {
                return;
            }
            try {
                egressService.register(ip, registration);
                if (failing) {
                    LOG.infof("run %s: the registration of sandbox %s with egress-service is refreshed again",
                            registration.runId(), ip);
                    failing = false;
                }
            } catch (EgressServiceClient.RegistrationFailed | EgressServiceClient.AddressHeld e) {
                failing = true;
                LOG.warnf("run %s: could not refresh the registration of sandbox %s with egress-service (tried"
                        + " again in %s): %s", registration.runId(), ip, period, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                failing = true;
                LOG.warnf("run %s: could not refresh the registration of sandbox %s with egress-service (tried"
                        + " again in %s): %s", registration.runId(), ip, period, e.getClass().getSimpleName());
            }
        }

        synchronized void stop() {
            stopped = true;
            if (future != null) {
                future.cancel(false);
            }
        }
    }
}
