package io.trimus.egress.anomaly;

import io.trimus.egress.sandbox.Sandbox;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link AnomalyRecorder} that keeps every reported denial, for assertions. */
public final class RecordingAnomalies implements AnomalyRecorder {

    /** One reported denial, as reported. */
    public record Recorded(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason,
                           boolean enforced) {
        /** An enforced denial. */
        public Recorded(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason) {
            this(sandbox, sourceIp, qname, qtype, reason, true);
        }
    }

    private final List<Recorded> recorded = new CopyOnWriteArrayList<>();

    @Override
    public void record(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason,
                       boolean enforced) {
        recorded.add(new Recorded(sandbox, sourceIp, qname, qtype, reason, enforced));
    }

    /** Everything reported so far, in order. */
    public List<Recorded> all() {
        return List.copyOf(recorded);
    }

    /** Forgets what was reported. */
    public void clear() {
        recorded.clear();
    }
}
