package io.trimus.events;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;

import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.QUEUED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static io.trimus.events.RunState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;

/** A run only moves forward, and a finished run never moves again, whatever arrives late or twice. */
class RunStateTest {

    @Test
    void aRunMovesForwardThroughItsLife() {
        assertThat(QUEUED.canMoveTo(DISPATCHED)).isTrue();
        assertThat(DISPATCHED.canMoveTo(RUNNING)).isTrue();
        assertThat(RUNNING.canMoveTo(SUCCEEDED)).isTrue();
        assertThat(RUNNING.canMoveTo(FAILED)).isTrue();
        assertThat(RUNNING.canMoveTo(TIMED_OUT)).isTrue();
        assertThat(RUNNING.canMoveTo(CANCELLED)).isTrue();
    }

    @Test
    void aRunMayReachALaterStateWhoseEventOvertookTheEarlierOne() {
        assertThat(QUEUED.canMoveTo(RUNNING)).isTrue();
        assertThat(DISPATCHED.canMoveTo(FAILED)).isTrue();
        assertThat(QUEUED.canMoveTo(REJECTED)).isTrue();
        assertThat(QUEUED.canMoveTo(CANCELLED)).isTrue();
    }

    @Test
    void aLateEventNeverMovesARunBack() {
        assertThat(RUNNING.canMoveTo(DISPATCHED)).isFalse();
        assertThat(RUNNING.canMoveTo(QUEUED)).isFalse();
        assertThat(DISPATCHED.canMoveTo(QUEUED)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(RunState.class)
    void aDuplicateEventDoesNotMoveARun(RunState state) {
        assertThat(state.canMoveTo(state)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = RunState.class, names = {"SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED"})
    void aFinishedRunNeverMoves(RunState finished) {
        assertThat(finished.isTerminal()).isTrue();
        assertThat(Arrays.stream(RunState.values()).filter(finished::canMoveTo)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = RunState.class, names = {"QUEUED", "DISPATCHED", "RUNNING"})
    void anUnfinishedRunCanStillEnd(RunState open) {
        assertThat(open.isTerminal()).isFalse();
        assertThat(open.canMoveTo(CANCELLED)).isTrue();
        assertThat(open.canMoveTo(FAILED)).isTrue();
    }
}
