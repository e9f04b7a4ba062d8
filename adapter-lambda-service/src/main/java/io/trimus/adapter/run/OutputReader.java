package io.trimus.adapter.run;

import io.trimus.events.RunStatusChanged;
import io.trimus.events.secrets.Redactor;

/**
 * Reads what a run printed into its terminal report: an agent CLI's answer and usage out of its JSON output. An
 * executor builds the terminal event as always (the output tail, masked) and hands it here with the raw tail and the
 * run's redactor; {@link #NONE}, every run but an agent CLI's, hands the event back unchanged.
 */
@FunctionalInterface
public interface OutputReader {

    /** Reads nothing: the event as it was built. */
    OutputReader NONE = (event, raw, redactor) -> event;

    /**
     * The terminal event with the run's output read.
     *
     * @param event    the event as built: its output is {@code raw} masked
     * @param raw      the captured output tail before masking (never null)
     * @param redactor the run's redactor; whatever the reader takes out of {@code raw} is masked with it
     * @return the event to report; never throws
     */
    RunStatusChanged read(RunStatusChanged event, String raw, Redactor redactor);
}
