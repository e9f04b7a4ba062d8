package io.trimus.adapter.a2a;

import io.a2a.spec.Artifact;
import io.a2a.spec.DataPart;
import io.a2a.spec.Part;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TextPart;
import io.trimus.events.OutputTail;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a run holds of its peer task's artifacts: never more than the output cap of text, nor more than
 * {@link HeldArtifacts#MAX_PIECES} artifacts and parts, however long the peer streams; what is kept is the end.
 */
class HeldArtifactsTest {
    private static final int CAP = 1000;

    @Test
    void appendedChunksBeyondTheCapKeepTheEndAndNeverHoldMore() {
        HeldArtifacts held = new HeldArtifacts(CAP);
        long most = 0;
        for (int i = 0; i < 500; i++) {
            held.merge(chunk("report", String.format("line %04d %s", i, "x".repeat(90)), i > 0));
            most = Math.max(most, held.bytes());
        }

        assertThat(most).isLessThanOrEqualTo(CAP);
        assertThat(held.cut()).isTrue();
        assertThat(held.text()).endsWith("line 0499 " + "x".repeat(90));
        assertThat(held.text()).startsWith(OutputTail.TRUNCATED_MARKER).doesNotContain("line 0000");
        String kept = held.text().substring(OutputTail.TRUNCATED_MARKER.length()).replace("\n", "");
        assertThat(kept.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(CAP);
    }

    @Test
    void withinTheCapEverythingIsKeptInOrderAndNothingIsCut() {
        HeldArtifacts held = new HeldArtifacts(CAP);
        held.merge(chunk("a", "first", false));
        held.merge(chunk("b", "second", false));
        held.merge(chunk("a", "third", true));
        held.merge(update(new Artifact("c", "data", null, List.of(new DataPart(Map.of("k", "v"))), null, null), false));

        assertThat(held.text()).isEqualTo("first\nthird\nsecond");
        assertThat(held.cut()).isFalse();
        assertThat(held.isEmpty()).isFalse();
    }

    @Test
    void anArtifactPutAgainReplacesItsTextInItsPlace() {
        HeldArtifacts held = new HeldArtifacts(CAP);
        held.merge(chunk("a", "old", false));
        held.merge(chunk("b", "other", false));
        held.put(new Artifact("a", null, null, List.of(new TextPart("new")), null, null));

        assertThat(held.text()).isEqualTo("new\nother");
        assertThat(held.bytes()).isEqualTo("a".length() + "b".length() + "new".length() + "other".length());
    }

    @Test
    void aFloodOfTinyPartsAndArtifactsIsHeldToTheMostRecentPieces() {
        HeldArtifacts held = new HeldArtifacts(1 << 20);
        for (int i = 0; i < 5000; i++) {
            held.merge(chunk("artifact-" + i, "p" + i, false));
        }

        assertThat(held.cut()).isTrue();
        assertThat(held.text().split("\n")).hasSizeLessThanOrEqualTo(HeldArtifacts.MAX_PIECES / 2 + 2)
                .endsWith("p4999");
    }

    @Test
    void onePartLargerThanTheCapKeepsItsEndWithoutSplittingACharacter() {
        HeldArtifacts held = new HeldArtifacts(CAP);
        held.merge(chunk("a", "ä".repeat(2000) + "END", false));

        assertThat(held.bytes()).isLessThanOrEqualTo(CAP);
        assertThat(held.text()).endsWith("END").doesNotContain("\uFFFD");
        assertThat(held.cut()).isTrue();
    }

    @Test
    void aLongArtifactIdIsHeldByItsFirstCharacters() {
        HeldArtifacts held = new HeldArtifacts(CAP);
        String id = "i".repeat(100_000);
        held.merge(chunk(id, "one", false));
        held.merge(chunk(id, "two", true));

        assertThat(held.text()).isEqualTo("one\ntwo");
        assertThat(held.bytes()).isEqualTo(HeldArtifacts.MAX_ID + "onetwo".length());
    }

    private static TaskArtifactUpdateEvent chunk(String id, String text, boolean append) {
        return update(new Artifact(id, null, null, List.<Part<?>>of(new TextPart(text)), null, null), append);
    }

    private static TaskArtifactUpdateEvent update(Artifact artifact, boolean append) {
        return new TaskArtifactUpdateEvent.Builder().taskId("t").contextId("c").artifact(artifact).append(append)
                .build();
    }
}
