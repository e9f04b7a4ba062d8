import io.trimus.events.secrets.DispatchKey;
import io.trimus.events.secrets.SandboxMask;
import io.trimus.events.secrets.SandboxMasks;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * bench/proxy's masked-secret registration, as the adapter service seals it (run as a single-file program on
 * egress-service's own classpath, so the sealing is the real one): prints the sealed masks of one secret
 * {@code bench-token} for {@code host}, header {@code authorization}, surrogate and value from the arguments, sealed
 * for the run and address under TRIMUS_ENCRYPTION_KEY.
 *
 * <p>usage: BenchMasks RUN_ID SANDBOX_IP HOST SURROGATE VALUE
 */
public final class BenchMasks {
    public static void main(String[] args) {
        DispatchKey key = DispatchKey.configured(Optional.empty(),
                Optional.ofNullable(System.getenv("TRIMUS_ENCRYPTION_KEY"))).orElseThrow(() ->
                new IllegalStateException("TRIMUS_ENCRYPTION_KEY is not set"));
        System.out.println(new SandboxMasks(key).seal(UUID.fromString(args[0]), args[1], List.of(new SandboxMask(
                "bench-token", args[3], args[4], List.of(args[2]), List.of("authorization")))));
    }
}
