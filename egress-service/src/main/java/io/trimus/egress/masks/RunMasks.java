package io.trimus.egress.masks;

import io.trimus.events.secrets.SandboxMask;

import java.util.List;
import java.util.UUID;

/**
 * The masked secrets of one sandbox as the proxy uses them: the run that holds the address, each secret's surrogate,
 * value and scope, and the fingerprint of the egress CA placed in the sandbox (its leaf certificates must chain to
 * it). Held in memory only.
 */
public record RunMasks(UUID runId, List<SandboxMask> masks, String caFingerprint) {
    public RunMasks {
        masks = List.copyOf(masks);
    }

    /** Whether any masked secret of the sandbox may be sent to {@code host}: the proxy then terminates its TLS. */
    public boolean intercepts(String host) {
        for (SandboxMask mask : masks) {
            if (mask.scope().covers(host)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "RunMasks[run=" + runId + ", masks=" + masks + ", ca=" + caFingerprint + "]";
    }
}
