package io.trimus.egress.sandbox.registration;

/**
 * The masks of a sandbox registration as they arrived: sealed by the adapter service (SandboxMasks, bound to the run
 * and the address) with the fingerprint of the egress CA placed in the sandbox. Stored so that a replica which did not
 * receive the registration can open them; never in clear.
 */
public record SealedMasks(String sealed, String ca) {
    @Override
    public String toString() {
        return "SealedMasks[" + sealed.length() + " characters, ca=" + ca + "]";
    }
}
