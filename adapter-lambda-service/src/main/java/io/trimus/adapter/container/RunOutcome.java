package io.trimus.adapter.container;

import io.trimus.events.RunState;

/**
 * How a docker run ended, as its runner reports it once: the state, the exit code and output tail when the container
 * ran, and the sentence that says why. {@link #NOTHING} means there is nothing to report (another delivery of the
 * run owns its container).
 */
record RunOutcome(RunState state, Integer exitCode, String output, String error) {

    /** Another delivery of this run already executes it: this one reports nothing. */
    static final RunOutcome NOTHING = new RunOutcome(null, null, null, null);

    /** An outcome decided before the container ran: no exit code, no output. */
    static RunOutcome of(RunState state, String error) {
        return new RunOutcome(state, null, null, error);
    }

    boolean reported() {
        return state != null;
    }

    /** Ends a run at the step that decided its outcome; the runner reports it and cleans up. */
    static final class Ended extends Exception {
        private final RunOutcome outcome;

        Ended(RunOutcome outcome) {
            super(outcome.error(), null, false, false);
            this.outcome = outcome;
        }

        Ended(RunState state, String error) {
            this(RunOutcome.of(state, error));
        }

        RunOutcome outcome() {
            return outcome;
        }
    }
}
