package io.trimus.adapter.command.output;

import io.trimus.events.RunUsage;

/**
 * What a CLI's output said: its final answer and its usage, each null when it said none (or nothing read cleanly).
 *
 * @param answer the CLI's final text; null on an error result or when none was found
 * @param usage  what the CLI reported the run used; null when it reported nothing
 */
public record CliResult(String answer, RunUsage usage) {

    /** Nothing read. */
    public static final CliResult NONE = new CliResult(null, null);

    public CliResult {
        usage = usage == null || usage.isEmpty() ? null : usage;
    }

    /** Whether neither an answer nor usage was found. */
    public boolean isEmpty() {
        return answer == null && usage == null;
    }
}
