package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A row waiting out a retry holds back the later events of its own run and nothing else. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class OutboxRetryTest {
    private static final KafkaTopics kafka = KafkaTopics.shared();

    @Test
    void aRowWaitingOutARetryHoldsBackOnlyItsOwnRunsLaterEvents() {
        String stuckRun = UUID.randomUUID().toString();
        String otherRun = UUID.randomUUID().toString();
        try {
            long stuck = stage(stuckRun, Instant.now().plus(Duration.ofHours(1)));
            long behindIt = stage(stuckRun, null);
            long other = stage(otherRun, null);

            assertThat(kafka.awaitRecord(Topics.RUN_CANCEL, otherRun).key()).isEqualTo(otherRun);
            await().atMost(Duration.ofSeconds(30)).until(() -> published(other));
            assertThat(published(stuck)).isFalse();
            assertThat(published(behindIt)).isFalse();
            assertThat(kafka.recordsAfter(Topics.RUN_CANCEL, stuckRun, Duration.ofSeconds(2))).isEmpty();
        } finally {
            Db.update("delete from run.outbox_event where message_key = ?", stuckRun);
        }
    }

    /** An outbox row for a cancel of {@code run} (a run nobody knows: nothing acts on it), due at {@code due}. */
    private static long stage(String run, Instant due) {
        UUID id = UUID.randomUUID();
        String payload = "{\"id\":\"" + id + "\",\"run_id\":\"" + run + "\",\"company_id\":\"" + UUID.randomUUID()
                + "\",\"requested_at\":\"" + Instant.now() + "\"}";
        Db.update("insert into run.outbox_event (id, topic, message_key, type, payload, created_at, attempts,"
                        + " next_attempt_at) values (?, ?, ?, ?, ?, now(), ?, ?)", id, Topics.RUN_CANCEL, run,
                EventTypes.RUN_CANCEL, payload, due == null ? 0 : 3, due == null ? null : Timestamp.from(due));
        return Long.parseLong(Db.texts("select seq::text from run.outbox_event where id = ?", id).get(0));
    }

    private static boolean published(long seq) {
        return !Db.texts("select seq::text from run.outbox_event where seq = ? and published_at is not null", seq)
                .isEmpty();
    }
}
