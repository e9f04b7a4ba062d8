package io.trimus.adapter.lambda;

import io.quarkus.runtime.Startup;
import io.trimus.adapter.offhost.EndpointAddressPolicy;
import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.LambdaAdapterConfig;
import io.trimus.events.secrets.Redactor;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * lambda: the run is one HTTP call from this service to the agent's endpoint (DESIGN.md §5), which executes it and
 * answers with the outcome. Behind the SSRF guard ({@link EndpointAddressPolicy}); the auth header's value is a company
 * secret, opened just before the call and masked in everything the run reports.
 *
 * <p>An endpoint given as an IP literal is judged when the run is validated, so a refused one ends REJECTED before
 * DISPATCHED; a host name is resolved only when the run leaves the queue (DNS must not hold up the dispatcher), and a
 * refused address then ends the run REJECTED too: either way nothing was sent.
 */
@Startup
@Singleton
public class LambdaAdapter implements Adapter {
    private final RunSecrets secrets;
    private final LambdaCaller caller;

    @Inject
    public LambdaAdapter(RunSecrets secrets, LambdaCaller caller) {
        this.secrets = secrets;
        this.caller = caller;
    }

    @Override
    public AdapterType type() {
        return AdapterType.LAMBDA;
    }

    @Override
    public void validate(RunRequested request) {
        LambdaAdapterConfig config = LambdaAdapterConfig.parse(request.adapterConfig());
        Map<String, String> opened = secrets.open(request);
        if (config.authHeader() != null && !opened.containsKey(LambdaAdapterConfig.AUTH_HEADER_SECRET)) {
            throw new RunRejected("the run carries no value for its " + config.authHeader().name() + " header;"
                    + " run-service adds it from the company's secret " + config.authHeader().secret());
        }
        literal(config).ifPresent(address -> {
            EndpointAddressPolicy.Verdict verdict = caller.policy().check(address);
            if (!verdict.allowed()) {
                throw new RunRejected(EndpointDialler.refusal(verdict.reason()));
            }
        });
    }

    @Override
    public void submit(RunRequested request) {
        LambdaAdapterConfig config = LambdaAdapterConfig.parse(request.adapterConfig());
        Map<String, String> opened = secrets.open(request);
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(config.headers());
        headers.put("Content-Type", "application/json");
        headers.putIfAbsent("Accept", "application/json");
        headers.put("Idempotency-Key", request.runId().toString());
        if (config.authHeader() != null) {
            headers.put(config.authHeader().name(), opened.get(LambdaAdapterConfig.AUTH_HEADER_SECRET));
        }
        caller.submit(new LambdaCall(request, config, literal(config).orElse(null), headers,
                LambdaContract.payload(request, config), Redactor.of(opened.values())));
    }

    @Override
    public boolean cancel(UUID runId) {
        return caller.cancel(runId);
    }

    /** An HTTP call does not outlive the process that made it. */
    @Override
    public List<OrphanRun> reapOrphans() {
        return List.of();
    }

    private static Optional<InetAddress> literal(LambdaAdapterConfig config) {
        return EndpointAddressPolicy.literal(config.host());
    }
}
