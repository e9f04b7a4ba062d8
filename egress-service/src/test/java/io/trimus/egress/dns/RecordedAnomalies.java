package io.trimus.egress.dns;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.sandbox.Sandbox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** An {@link AnomalyRecorder} that keeps every reported denial, for assertions. */
final class RecordedAnomalies implements AnomalyRecorder {

    record Recorded(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason) {
    }

    private final List<Recorded> recorded = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void record(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason) {
        recorded.add(new Recorded(sandbox, sourceIp, qname, qtype, reason));
    }

    List<Recorded> all() {
        synchronized (recorded) {
            return new ArrayList<>(recorded);
        }
    }

    void clear() {
        recorded.clear();
    }
}
