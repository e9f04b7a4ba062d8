package io.trimus.adapter.lambda;

import io.vertx.core.http.HttpClientRequest;

import java.net.InetAddress;

/** One lambda run's call as it goes; every field is touched on the caller's event-loop context only. */
final class CallState {
    final LambdaCall spec;
    /** Where the call is in {@link CallAdmission}; null before it was admitted. */
    CallAdmission.Place place;
    boolean started;
    boolean finished;
    boolean responseStarted;
    int attempt;
    long deadlineAt;
    Long deadlineTimer;
    Long backoffTimer;
    InetAddress address;
    HttpClientRequest request;

    CallState(LambdaCall spec) {
        this.spec = spec;
    }

    /** Ends a call exactly once with its outcome; implemented by {@link LambdaCaller}. */
    @FunctionalInterface
    interface Ending {
        void finish(CallState call, LambdaContract.Outcome outcome);
    }
}
