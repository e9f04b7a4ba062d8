package io.trimus.egress.canary;

import io.trimus.egress.anomaly.AnomalyPublisher;
import io.trimus.events.CanaryCheck;
import io.trimus.events.CanaryRequested;
import io.trimus.events.CanaryResult;
import io.trimus.events.EgressAnomaly;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Raises anomaly {@code canary_breach} for each check of a canary that got through what must fail: qname the check's
 * target host (and port), qtype {@value #QTYPE}, run_id the canary, agent_id {@link CanaryRequested#PROBE_AGENT_ID},
 * source_ip the probe sandbox's address when the adapter reported it (else {@value #NO_ADDRESS}).
 */
@ApplicationScoped
public class CanaryBreaches {
    static final String QTYPE = "CANARY";
    static final String NO_ADDRESS = "0.0.0.0";

    private final AnomalyPublisher publisher;

    CanaryBreaches(AnomalyPublisher publisher) {
        this.publisher = publisher;
    }

    /** Publishes one anomaly per breached check. */
    void raise(CanaryResult result, List<CanaryCheck> breached) {
        Instant at = result.finishedAt() == null ? Instant.now() : result.finishedAt();
        String source = result.sandboxIp() == null ? NO_ADDRESS : result.sandboxIp();
        for (CanaryCheck check : breached) {
            publisher.publish(new EgressAnomaly(UUID.randomUUID(), result.companyId(), CanaryRequested.PROBE_AGENT_ID,
                    result.canaryId(), null, source, qname(check), QTYPE, EgressAnomaly.CANARY_BREACH, 1, at, at,
                    true));
        }
    }

    /** The host (and port) a check tried: {@code CONNECT 1.1.1.1:443 via …} → {@code 1.1.1.1:443}. */
    static String qname(CanaryCheck check) {
        String target = check.target() == null ? check.name() : check.target().trim();
        String[] words = target.split("\\s+");
        String word = words.length > 1 && (words[0].equals("CONNECT") || words[0].equals("GET")) ? words[1] : words[0];
        if (word.startsWith("http://")) {
            word = word.substring("http://".length());
            int slash = word.indexOf('/');
            word = slash < 0 ? word : word.substring(0, slash);
        }
        return word.isEmpty() ? check.name() : word;
    }
}
