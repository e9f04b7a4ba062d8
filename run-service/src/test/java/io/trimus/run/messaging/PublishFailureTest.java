package io.trimus.run.messaging;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

/** Only a fault of the record itself fails a run; an outage, or anything not understood, is retried. */
class PublishFailureTest {

    @Test
    void aRecordTooLargeIsRefusedForGoodWithAReasonSayingWhatToShorten() {
        PublishFailure failure = PublishFailure.of(new CompletionException(new RecordTooLargeException(
                "The request included a message larger than the max message size the server will accept.")));

        assertThat(failure.forGood()).isTrue();
        assertThat(failure.reason()).contains("larger than the Kafka broker accepts").contains("shorten the issue")
                .contains("max message size").doesNotContain("Exception");
    }

    @Test
    void anInvalidOrUnserialisableRecordOrAnUnknownTopicIsRefusedForGood() {
        assertThat(PublishFailure.of(new InvalidRecordException("compacted topic needs a key")).forGood()).isTrue();
        assertThat(PublishFailure.of(new KafkaException(new SerializationException("bad bytes"))).forGood()).isTrue();
        assertThat(PublishFailure.of(new PublishFailure.NoChannel("trimus.nowhere")).reason())
                .contains("trimus.nowhere");
    }

    @Test
    void anOutageIsRetriedNotFatal() {
        assertThat(PublishFailure.of(new TimeoutException("Topic trimus.run.requested not present in metadata"))
                .forGood()).isFalse();
        assertThat(PublishFailure.of(new NotEnoughReplicasException("2 < 3")).forGood()).isFalse();
        assertThat(PublishFailure.of(new NetworkException("connection reset")).forGood()).isFalse();
        assertThat(PublishFailure.of(new io.smallrye.mutiny.TimeoutException()).forGood()).isFalse();
    }

    @Test
    void aFailureNotUnderstoodIsRetriedRatherThanFailingTheRun() {
        PublishFailure failure = PublishFailure.of(new IllegalStateException(null, null));

        assertThat(failure.forGood()).isFalse();
        assertThat(failure.reason()).isNotBlank();
    }
}
