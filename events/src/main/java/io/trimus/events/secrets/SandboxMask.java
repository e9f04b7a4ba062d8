package io.trimus.events.secrets;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.trimus.events.MaskScope;

import java.util.List;

/**
 * One masked secret of one sandbox, as egress-service's proxy needs it: the surrogate the sandbox holds, the real
 * value to put in its place, and where that is allowed. Only ever on the wire sealed ({@link SandboxMasks}).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SandboxMask(String name, String surrogate, String value, List<String> hosts, List<String> headers) {
    /** The scope part, which is not secret. */
    public MaskScope scope() {
        return new MaskScope(name, hosts, headers);
    }

    @Override
    public String toString() {
        return "SandboxMask[name=" + name + ", hosts=" + hosts + ", headers=" + headers + "]";
    }
}
