package io.trimus.egress.masks;

import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.ca.EgressKeys;
import io.trimus.events.secrets.SandboxMask;
import io.trimus.events.secrets.SandboxMasks;
import io.trimus.events.secrets.SecretBox;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Opens the sealed masks of a sandbox registration with the dispatch key derived from TRIMUS_ENCRYPTION_KEY and checks
 * they are usable; every refusal is a problem naming the field, and never shows a value.
 */
@ApplicationScoped
public class MaskOpener {
    /** The sealed list is small: 64 masks of a few KiB at most. */
    static final int MAX_SEALED_CHARS = 512 * 1024;
    static final int MAX_MASKS = 64;
    /** A surrogate must be long enough not to occur in ordinary text by chance. */
    static final int MIN_SURROGATE = 12;
    static final int MAX_VALUE = 4096;

    private final Optional<SandboxMasks> masks;

    /** An opener with the dispatch key of {@code keys}; without one it refuses every mask (503). */
    public MaskOpener(EgressKeys keys) {
        this.masks = keys.dispatchKey().map(SandboxMasks::new);
    }

    /** The masks of the run at {@code ip}, sealed as {@code sealed}, to be signed for with the CA {@code ca}. */
    public RunMasks open(UUID runId, String ip, String sealed, String ca) {
        if (masks.isEmpty()) {
            throw new ProblemException(503, "Service Unavailable", "egress-service has no TRIMUS_ENCRYPTION_KEY, so it"
                    + " cannot hold masked secrets; give it run-service's key", "masks");
        }
        if (sealed.length() > MAX_SEALED_CHARS) {
            throw ProblemException.invalid("masks", "must be at most " + MAX_SEALED_CHARS + " characters");
        }
        if (ca == null || ca.length() != 64 || !ca.chars().allMatch(c -> HexFormat.isHexDigit(c)
                && !Character.isUpperCase(c))) {
            throw ProblemException.invalid("ca", "is required with masks: the SHA-256 fingerprint (64 lower-case hex"
                    + " digits) of the egress CA placed in the sandbox");
        }
        List<SandboxMask> opened;
        try {
            opened = masks.get().open(runId, ip, sealed);
        } catch (SecretBox.WrongKeyException e) {
            throw ProblemException.invalid("masks", "do not open: they were sealed for another run or address, or"
                    + " under another key than this egress-service's TRIMUS_ENCRYPTION_KEY");
        }
        check(opened);
        return new RunMasks(runId, opened, ca);
    }

    private static void check(List<SandboxMask> opened) {
        if (opened.isEmpty() || opened.size() > MAX_MASKS) {
            throw ProblemException.invalid("masks", "must hold 1 to " + MAX_MASKS + " masked secrets");
        }
        for (int i = 0; i < opened.size(); i++) {
            SandboxMask mask = opened.get(i);
            String field = "masks[" + i + "]";
            if (mask.name() == null || mask.name().isBlank() || mask.surrogate() == null || mask.value() == null
                    || mask.value().isEmpty() || mask.value().length() > MAX_VALUE) {
                throw ProblemException.invalid(field, "needs a name, a surrogate and a value of at most " + MAX_VALUE
                        + " characters");
            }
            if (mask.surrogate().length() < MIN_SURROGATE || mask.surrogate().equals(mask.value())) {
                throw ProblemException.invalid(field, "needs a surrogate of at least " + MIN_SURROGATE
                        + " characters that differs from the value");
            }
            if (mask.hosts() == null || mask.hosts().isEmpty()) {
                throw ProblemException.invalid(field, "needs at least one host");
            }
        }
    }
}
