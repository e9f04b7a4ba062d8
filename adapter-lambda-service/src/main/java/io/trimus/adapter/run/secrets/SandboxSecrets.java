package io.trimus.adapter.run.secrets;

import io.trimus.adapter.run.RunRejected;
import io.trimus.events.MaskScope;
import io.trimus.events.RunRequested;
import io.trimus.events.secrets.Redactor;
import io.trimus.events.secrets.SandboxMask;
import io.trimus.events.secrets.Surrogates;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's secrets as its sandbox gets them: plain ones as they are, masked ones
 * ({@link RunRequested#masked()}) replaced by a fresh {@link Surrogates surrogate}, with the {@link SandboxMask}s that
 * let egress-service's proxy swap the real value back in. Never printed: {@link #toString()} names variables only.
 *
 * @param env   variable → the value the container gets (a surrogate for a masked secret)
 * @param masks one per masked variable: secret name, surrogate, real value and scope
 */
public record SandboxSecrets(Map<String, String> env, List<SandboxMask> masks) {
    private static final SecureRandom RANDOM = new SecureRandom();

    public SandboxSecrets {
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
        masks = List.copyOf(masks);
    }

    /** Secrets without any masked one. */
    public static SandboxSecrets plain(Map<String, String> env) {
        return new SandboxSecrets(env, List.of());
    }

    /**
     * The sandbox's secrets: each opened variable, a surrogate in place of the value where {@code masked} names it.
     *
     * @throws RunRejected when a masked value has nothing a surrogate could replace
     */
    public static SandboxSecrets of(Map<String, String> opened, Map<String, MaskScope> masked) {
        Map<String, String> env = new LinkedHashMap<>();
        List<SandboxMask> masks = new ArrayList<>();
        opened.forEach((variable, value) -> {
            MaskScope scope = masked.get(variable);
            if (scope == null) {
                env.put(variable, value);
                return;
            }
            String surrogate;
            try {
                surrogate = Surrogates.of(value, RANDOM);
            } catch (IllegalArgumentException e) {
                throw new RunRejected("the masked secret " + scope.secret() + " (" + variable + ") has no letters or"
                        + " digits a surrogate could replace; make it plain or store the real key");
            }
            env.put(variable, surrogate);
            masks.add(new SandboxMask(scope.secret(), surrogate, value, scope.hosts(), scope.headers()));
        });
        return new SandboxSecrets(env, masks);
    }

    /**
     * What the run's output is masked with: the plain values as {@code [REDACTED]}, each masked secret's real value
     * as well, and its surrogate as {@code [MASKED:NAME]}.
     */
    public static Redactor redactor(Iterable<String> plainValues, List<SandboxMask> masks) {
        List<String> values = new ArrayList<>();
        plainValues.forEach(values::add);
        Map<String, String> marks = new LinkedHashMap<>();
        for (SandboxMask mask : masks) {
            values.add(mask.value());
            marks.put(mask.surrogate(), Redactor.maskedMark(mask.name()));
        }
        return Redactor.of(values).withMarks(marks);
    }

    /** Refuses a run that carries masked secrets to an adapter whose process could not hold a surrogate only. */
    public static void refuseMasked(RunRequested run, String adapter) {
        if (!run.masked().isEmpty()) {
            throw new RunRejected("the run carries masked secrets (" + String.join(", ", run.masked().values().stream()
                    .map(MaskScope::secret).sorted().distinct().toList()) + "), which only a sandbox on the egress"
                    + " network can use, through the egress proxy; a " + adapter + " run cannot: make them plain or"
                    + " use a docker or *_sandbox agent on the egress network");
        }
    }

    @Override
    public String toString() {
        return "SandboxSecrets[variables=" + env.keySet() + ", masked=" + masks.size() + "]";
    }
}
