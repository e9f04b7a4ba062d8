package io.trimus.egress.sandbox;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which sandbox owns which source address: the resolver's attribution. In memory and lock-free, because every
 * DNS query reads it; the adapter service registers a sandbox before its process can send a packet.
 */
@ApplicationScoped
public class SandboxRegistry {
    private final ConcurrentHashMap<String, Sandbox> byIp = new ConcurrentHashMap<>();

    /** Registers (or re-registers) the sandbox at its address. */
    public void register(Sandbox sandbox) {
        byIp.put(sandbox.ip(), sandbox);
    }

    /** Forgets the sandbox at {@code ip}; true when one was registered. */
    public boolean deregister(String ip) {
        return byIp.remove(ip) != null;
    }

    /** The sandbox whose packets come from {@code ip}. */
    public Optional<Sandbox> lookup(String ip) {
        return Optional.ofNullable(byIp.get(ip));
    }

    /** All registered sandboxes. */
    public Collection<Sandbox> all() {
        return byIp.values();
    }
}
