package io.trimus.adapter.egress.probe;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.ResolverCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * Asks the Trimus resolver {@link ResolverCheck#NAME} before a sandbox starts: a sandbox whose resolver does not
 * answer, or whose resolver is not Trimus's, never starts (fail-secure). A good answer is trusted for
 * TRIMUS_EGRESS_RESOLVER_CHECK_TRUST, so a burst of runs costs one round trip. Blocking; called on run worker threads.
 */
@ApplicationScoped
public class ResolverProbe {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final Optional<String> configured;
    private final long trustNanos;
    private volatile String lastGoodAddress;
    private volatile long lastGoodAt;

    @Inject
    public ResolverProbe(TrimusConfig config) {
        Optional<String> hostPort = config.egress().resolverCheckAddr();
        this.configured = hostPort.map(String::trim).filter(s -> !s.isEmpty());
        this.trustNanos = config.egress().resolverCheckTrust().toNanos();
        configured.ifPresent(ResolverProbe::parse);
    }

    /**
     * Checks the resolver a sandbox is given.
     *
     * @param sandboxDns the {@code --dns} address of the sandbox
     * @return null when it answers as Trimus's resolver, else the sentence that says what is wrong
     */
    public String problem(String sandboxDns) {
        String address = configured.orElse(sandboxDns + ":53");
        if (address.equals(lastGoodAddress) && System.nanoTime() - lastGoodAt < trustNanos) {
            return null;
        }
        InetSocketAddress target = parse(address);
        try {
            SimpleResolver resolver = new SimpleResolver(target);
            resolver.setTimeout(TIMEOUT);
            Message answer = resolver.send(Message.newQuery(
                    Record.newRecord(Name.fromConstantString(ResolverCheck.NAME), Type.A, DClass.IN)));
            int rcode = answer.getRcode();
            if (rcode != Rcode.NOERROR) {
                return "the resolver at " + address + " is not the Trimus resolver (it answered "
                        + Rcode.string(rcode) + " to the resolver check)";
            }
            lastGoodAddress = address;
            lastGoodAt = System.nanoTime();
            return null;
        } catch (IOException e) {
            return "the Trimus resolver at " + address + " does not answer (" + e.getMessage() + ")";
        }
    }

    private static InetSocketAddress parse(String hostPort) {
        return CheckAddress.parse(hostPort, "TRIMUS_EGRESS_RESOLVER_CHECK_ADDR", "172.30.0.1:53");
    }
}
