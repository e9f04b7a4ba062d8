package io.trimus.commons.streams;

import io.trimus.commons.problem.ProblemException;

/** 429: the credential already holds as many streams open on this instance as it may; one more waits for one to end. */
public class TooManyStreams extends ProblemException {
    public TooManyStreams(int max) {
        super(429, "Too many streams", "this credential already holds " + max + " streams open on this instance (the"
                + " limit, TRIMUS_STREAMS_MAX_PER_CALLER); close one and try again", null);
    }
}
