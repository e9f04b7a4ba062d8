package io.trimus.adapter.a2a;

import io.trimus.adapter.offhost.EndpointAddressPolicy;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.A2aPeerConfig;
import io.trimus.events.secrets.Redactor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.InetAddress;
import java.util.Map;
import java.util.UUID;

/**
 * The a2a form of a remote run, as the remote adapter hands it over: checks what can be checked before anything is sent
 * (the auth header's sealed value is there; an IP-literal url is an allowed address, a host name is judged when the run
 * starts), and gives {@link A2aCaller} the run with its auth header opened and a redactor that masks it everywhere.
 */
@ApplicationScoped
public class A2aDelegation {
    private final RunSecrets secrets;
    private final A2aCaller caller;

    @Inject
    public A2aDelegation(RunSecrets secrets, A2aCaller caller) {
        this.secrets = secrets;
        this.caller = caller;
    }

    /** Refuses a run whose peer cannot be called: no value for its auth header, or a refused IP literal. */
    public void validate(RunRequested request, A2aPeerConfig peer) {
        Map<String, String> opened = secrets.open(request);
        if (peer.authHeader() != null && !opened.containsKey(A2aPeerConfig.AUTH_HEADER_SECRET)) {
            throw new RunRejected("the run carries no value for its " + peer.authHeader().name() + " header to the A2A"
                    + " peer; run-service adds it from the company's secret " + peer.authHeader().secret());
        }
        literal(peer).ifPresent(address -> {
            EndpointAddressPolicy.Verdict verdict = caller.policy().check(address);
            if (!verdict.allowed()) {
                throw new RunRejected(A2aCaller.refusal(verdict.reason()));
            }
        });
    }

    /** Queues the validated run's exchange with its peer. */
    public void submit(RunRequested request, A2aPeerConfig peer) {
        Map<String, String> opened = secrets.open(request);
        Map<String, String> auth = peer.authHeader() == null ? Map.of()
                : Map.of(peer.authHeader().name(), opened.get(A2aPeerConfig.AUTH_HEADER_SECRET));
        caller.submit(new PeerRun(request, peer, literal(peer).orElse(null), auth, Redactor.of(opened.values())));
    }

    /** Cancels a delegated run held here; false when it is not. */
    public boolean cancel(UUID runId) {
        return caller.cancel(runId);
    }

    private static java.util.Optional<InetAddress> literal(A2aPeerConfig peer) {
        return EndpointAddressPolicy.literal(peer.host());
    }
}
