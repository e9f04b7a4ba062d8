package io.trimus.egress.proxy;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.sandbox.Sandbox;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link AnomalyRecorder} that keeps every reported denial, for assertions. */
final class RecordingAnomalies implements AnomalyRecorder {

    record Recorded(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason) {
    }

    private final List<Recorded> recorded = new CopyOnWriteArrayList<>();

    @Override
    public void record(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason) {
        recorded.add(new Recorded(sandbox, sourceIp, qname, qtype, reason));
    }

    List<Recorded> all() {
        return List.copyOf(recorded);
    }

    void clear() {
        recorded.clear();
    }
}
