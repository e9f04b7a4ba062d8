package io.trimus.run.messaging;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Why an outbox event was not published, and whether trying again can help. Only a fault of the record itself (too
 * large, invalid, not serialisable, no channel for its topic) is final; anything else, known to pass (broker down,
 * timeout, not enough replicas) or not understood, is retried later, so no run is failed for a passing outage.
 *
 * @param forGood true when the broker will never take this record
 * @param reason  one sentence for the run's error or the log, saying what to change when it is final
 */
record PublishFailure(boolean forGood, String reason) {
    private static final int MAX_DETAIL_CHARS = 300;

    /** The outbox row names a topic the relay has no channel for: a programming error, final for that row. */
    static final class NoChannel extends RuntimeException {
        NoChannel(String topic) {
            super("no Kafka channel for topic " + topic);
        }
    }

    static PublishFailure of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RecordTooLargeException || t instanceof RecordBatchTooLargeException) {
                return refused("the event is larger than the Kafka broker accepts (" + detail(t) + "); shorten the"
                        + " issue, the input or the agent's adapter_config, or have the operator raise the broker's"
                        + " message.max.bytes and TRIMUS_OUTBOX_MAX_RECORD_BYTES");
            }
            if (t instanceof InvalidRecordException) {
                return refused("the Kafka broker found the record invalid (" + detail(t) + ")");
            }
            if (t instanceof SerializationException) {
                return refused("the event could not be serialised for Kafka (" + detail(t) + ")");
            }
            if (t instanceof NoChannel) {
                return refused(detail(t));
            }
        }
        return new PublishFailure(false, detail(failure));
    }

    private static PublishFailure refused(String why) {
        return new PublishFailure(true, "Kafka refused the run request for good, so the run was never dispatched: "
                + why);
    }

    private static String detail(Throwable t) {
        String message = t.getMessage() == null || t.getMessage().isBlank() ? "no detail given" : t.getMessage().strip();
        return message.length() > MAX_DETAIL_CHARS ? message.substring(0, MAX_DETAIL_CHARS) + "…" : message;
    }
}
