package io.trimus.events.adapter;

import io.trimus.events.IssueRef;

import java.util.ArrayList;
import java.util.List;

/** The prompt a CLI agent gets for a run, built from the run's issue and input. */
public final class CliPrompt {
    private CliPrompt() {
    }

    /**
     * "Issue PROJ-42: title", the issue's body and the input, separated by blank lines; parts that are absent are
     * left out. Empty when the run has neither issue text nor input.
     */
    public static String of(IssueRef issue, String input) {
        List<String> parts = new ArrayList<>();
        if (issue != null) {
            String title = blank(issue.title()) ? null : issue.title().strip();
            if (title != null || !blank(issue.id())) {
                parts.add(blank(issue.id()) ? "Issue: " + title
                        : "Issue " + issue.id().strip() + (title == null ? "" : ": " + title));
            }
            if (!blank(issue.body())) {
                parts.add(issue.body().strip());
            }
        }
        if (!blank(input)) {
            parts.add(input.strip());
        }
        return String.join("\n\n", parts);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
