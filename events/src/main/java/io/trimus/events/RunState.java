package io.trimus.events;

/**
 * The life of a run: {@code QUEUED → DISPATCHED → RUNNING → SUCCEEDED | FAILED | TIMED_OUT | CANCELLED},
 * plus {@code REJECTED} when policy refuses a run before it starts.
 */
public enum RunState {
    QUEUED(0), DISPATCHED(1), RUNNING(2), SUCCEEDED(3), FAILED(3), TIMED_OUT(3), CANCELLED(3), REJECTED(3);

    private final int rank;

    RunState(int rank) {
        this.rank = rank;
    }

    /** True once the run can no longer change. */
    public boolean isTerminal() {
        return rank == 3;
    }

    /**
     * Whether a run in this state may move to {@code next}: only forward, never out of a terminal
     * state, so a late or duplicate event cannot move a finished run.
     */
    public boolean canMoveTo(RunState next) {
        return !isTerminal() && next.rank > rank;
    }
}
