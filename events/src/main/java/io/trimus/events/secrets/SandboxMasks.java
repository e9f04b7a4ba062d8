package io.trimus.events.secrets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * The contract for a sandbox's masked secrets in its registration with egress-service
 * ({@code SandboxRegistration.masks}): the list of {@link SandboxMask} as JSON, sealed under a key derived from the
 * {@link DispatchKey} for this purpose only and bound to the run and the sandbox address, base64 on the wire. The
 * adapter service seals; egress-service (which derives the same dispatch key from TRIMUS_ENCRYPTION_KEY) opens and
 * keeps the values in memory only.
 */
public final class SandboxMasks {
    private static final String PURPOSE = "egress-masks/v1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<SandboxMask>> LIST = new TypeReference<>() {
    };

    private final SecretBox box;

    public SandboxMasks(DispatchKey key) {
        this.box = new SecretBox(key.derive(PURPOSE, "AES"));
    }

    /** Seals the masks of the sandbox of {@code runId} at {@code ip} (canonical text form). */
    public String seal(UUID runId, String ip, List<SandboxMask> masks) {
        try {
            return Base64.getEncoder().encodeToString(box.seal(JSON.writeValueAsString(masks), context(runId, ip)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("masks do not serialise", e);
        }
    }

    /**
     * Opens what {@link #seal} sealed for this run and address.
     *
     * @throws SecretBox.WrongKeyException when sealed under another key, for another run or address, or not base64
     */
    public List<SandboxMask> open(UUID runId, String ip, String sealed) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(sealed);
        } catch (IllegalArgumentException e) {
            throw new SecretBox.WrongKeyException();
        }
        String json = box.open(bytes, context(runId, ip));
        try {
            return List.copyOf(JSON.readValue(json, LIST));
        } catch (JsonProcessingException e) {
            throw new SecretBox.WrongKeyException();
        }
    }

    private static String context(UUID runId, String ip) {
        return "run:" + runId + "/sandbox:" + ip;
    }
}
