package io.trimus.events.adapter;

import io.trimus.events.IssueRef;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A CLI run's prompt is the issue and the input, in that order, without empty parts. */
class CliPromptTest {

    @Test
    void issueAndInputMakeThePrompt() {
        assertThat(CliPrompt.of(new IssueRef("PROJ-42", " Fix login ", "The button does nothing.\n"), "Be brief."))
                .isEqualTo("Issue PROJ-42: Fix login\n\nThe button does nothing.\n\nBe brief.");
    }

    @Test
    void absentPartsAreLeftOut() {
        assertThat(CliPrompt.of(null, "only input")).isEqualTo("only input");
        assertThat(CliPrompt.of(new IssueRef(null, "Title", null), null)).isEqualTo("Issue: Title");
        assertThat(CliPrompt.of(new IssueRef("X-1", null, "  "), " ")).isEqualTo("Issue X-1");
    }

    @Test
    void nothingToSayIsAnEmptyPrompt() {
        assertThat(CliPrompt.of(null, null)).isEmpty();
        assertThat(CliPrompt.of(new IssueRef(null, " ", ""), "\n")).isEmpty();
    }
}
