package io.trimus.egress.masks;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which sandbox holds which masked secrets, by source address: filled by the adapter service's registrations (and
 * their refreshes), dropped at deregistration, never stored. A sandbox registered as masked whose masks this instance
 * has not received (egress-service restarted) is "waiting": the proxy refuses its connections to hosts it cannot
 * judge rather than let a surrogate, or anything else, through unswapped.
 */
@ApplicationScoped
public class MaskedSecrets {
    private final ConcurrentHashMap<String, RunMasks> byIp = new ConcurrentHashMap<>();
    private final Set<String> waiting = ConcurrentHashMap.newKeySet();

    /** The masks of the sandbox of {@code masks.runId()} at {@code ip}, replacing what was there. */
    public void put(String ip, RunMasks masks) {
        byIp.put(ip, masks);
        waiting.remove(key(ip, masks.runId()));
    }

    /**
     * Marks the sandbox of {@code runId} at {@code ip} as holding masked secrets not received yet (nothing when they
     * are held; masks of another run at that address do not count).
     */
    public void expect(String ip, UUID runId) {
        RunMasks held = byIp.get(ip);
        if (held == null || !held.runId().equals(runId)) {
            waiting.add(key(ip, runId));
        }
    }

    /** Forgets the sandbox of {@code runId} at {@code ip}; masks another run holds there stay. */
    public void drop(String ip, UUID runId) {
        byIp.computeIfPresent(ip, (address, masks) -> masks.runId().equals(runId) ? null : masks);
        waiting.remove(key(ip, runId));
    }

    /** The masks of the sandbox of {@code runId} at {@code ip}. */
    public Optional<RunMasks> of(String ip, UUID runId) {
        RunMasks masks = byIp.get(ip);
        return masks != null && masks.runId().equals(runId) ? Optional.of(masks) : Optional.empty();
    }

    /** Whether the sandbox of {@code runId} at {@code ip} holds masked secrets this instance has not received. */
    public boolean isWaiting(String ip, UUID runId) {
        return waiting.contains(key(ip, runId));
    }

    /** Forgets the masks of every sandbox but those of {@code kept} (address to the run holding it). */
    public void retainOnly(Map<String, UUID> kept) {
        byIp.entrySet().removeIf(held -> !held.getValue().runId().equals(kept.get(held.getKey())));
        Set<String> keys = new HashSet<>();
        kept.forEach((ip, runId) -> keys.add(key(ip, runId)));
        waiting.retainAll(keys);
    }

    /** Forgets every sandbox's masks: what a new process starts with. */
    public void reset() {
        byIp.clear();
        waiting.clear();
    }

    private static String key(String ip, UUID runId) {
        return ip + "/" + runId;
    }
}
