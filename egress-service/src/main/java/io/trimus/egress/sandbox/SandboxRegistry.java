package io.trimus.egress.sandbox;

import jakarta.enterprise.context.ApplicationScoped;

import java.net.InetAddress;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which sandbox owns which source address: the resolver's attribution. In memory and lock-free, because every DNS
 * query reads it; {@link io.trimus.egress.sandbox.registration.SandboxService} stores a registration before it
 * changes this map, {@link io.trimus.egress.sandbox.replica.SandboxRegistryLoader} fills it from the stored ones
 * before the resolver answers, and its {@link io.trimus.egress.sandbox.replica.RegistrationFeed} applies the changes
 * other replicas make.
 */
@ApplicationScoped
public class SandboxRegistry {
    // Keyed by address, not text: the resolver looks up the sender of each packet without formatting it.
    private final ConcurrentHashMap<InetAddress, Sandbox> byIp = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();
    private volatile boolean loaded;

    /** Registers (or re-registers) the sandbox at its address. */
    public void register(Sandbox sandbox) {
        byIp.put(address(sandbox.ip()), sandbox);
        changes.incrementAndGet();
    }

    /** Forgets the sandbox at {@code ip} if {@code runId} holds it; true when one was forgotten. */
    public boolean deregister(String ip, UUID runId) {
        boolean[] removed = {false};
        InetAddress address = IpAddresses.parse(ip);
        if (address == null) {
            return false;
        }
        byIp.computeIfPresent(address, (key, sandbox) -> {
            removed[0] = sandbox.runId().equals(runId);
            return removed[0] ? null : sandbox;
        });
        if (removed[0]) {
            changes.incrementAndGet();
        }
        return removed[0];
    }

    /** The sandbox whose packets come from {@code ip}. */
    public Optional<Sandbox> lookup(String ip) {
        InetAddress address = IpAddresses.parse(ip);
        return address == null ? Optional.empty() : Optional.ofNullable(byIp.get(address));
    }

    /** The sandbox whose packets come from {@code address}, or null. */
    public Sandbox lookup(InetAddress address) {
        return byIp.get(address);
    }

    /** All registered sandboxes. */
    public Collection<Sandbox> all() {
        return byIp.values();
    }

    /** Makes {@code stored} the whole registry, as a start does, and marks it loaded. */
    public void load(Collection<Sandbox> stored) {
        Map<InetAddress, Sandbox> wanted = stored.stream()
                .collect(Collectors.toMap(sandbox -> address(sandbox.ip()), Function.identity(), (a, b) -> b));
        byIp.keySet().retainAll(wanted.keySet());
        byIp.putAll(wanted);
        changes.incrementAndGet();
        loaded = true;
    }

    /**
     * How many times a registration was made, dropped or reloaded since start: open proxy connections are checked
     * again when it moves ({@link io.trimus.egress.proxy.admission.ProxyPolicy#changes()}).
     */
    public long changes() {
        return changes.get();
    }

    private static InetAddress address(String ip) {
        InetAddress address = IpAddresses.parse(ip);
        if (address == null) {
            throw new IllegalArgumentException("a sandbox's address must be an IP address, got " + ip);
        }
        return address;
    }

    /** True once the stored registrations are in memory: until then the resolver would refuse running sandboxes. */
    public boolean isLoaded() {
        return loaded;
    }
}
