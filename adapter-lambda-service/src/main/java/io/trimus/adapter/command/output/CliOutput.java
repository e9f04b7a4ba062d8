package io.trimus.adapter.command.output;

import io.trimus.adapter.run.OutputReader;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.RunUsage;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.CliAdapterConfig;
import io.trimus.events.secrets.Redactor;

/**
 * Reads what a Claude Code or Codex run printed into its terminal report: {@code output} becomes the CLI's answer,
 * {@code raw_output} keeps the tail it printed, {@code usage} what it said the run used ({@link ClaudeResult},
 * {@link CodexEvents}). When the CLI's output holds neither an answer nor usage (it failed before printing its JSON,
 * or printed something else), the report stays as it was: the output tail, no raw_output, no usage. Usage without an
 * answer (an error result) keeps the tail as output and adds the usage, with no raw_output: a report carries the tail
 * once unless its output is the answer.
 * <p>
 * The raw tail is read before anything is masked, then the answer, the tail and the model name are each masked with
 * the run's redactor: a JSON string escape ({@code \u0041…}) cannot carry a secret past the redactor into the
 * unescaped answer.
 *
 * @param cli   which CLI printed the output
 * @param model the model the agent configured ({@code --model}), for Codex, whose events name none; null for its
 *              default (Claude Code names its models itself)
 */
public record CliOutput(AgentCli cli, String model) implements OutputReader {

    /** The reader of an agent's runs. */
    public static CliOutput of(CliAdapterConfig agent) {
        return new CliOutput(agent.cli(), agent.model());
    }

    /** The answer and usage in {@code tail}, unmasked; {@link CliResult#NONE} for anything that does not read. */
    public CliResult read(String tail) {
        if (tail == null || tail.isEmpty()) {
            return CliResult.NONE;
        }
        try {
            return cli == AgentCli.CLAUDE ? ClaudeResult.read(tail) : CodexEvents.read(tail, model);
        } catch (RuntimeException | StackOverflowError e) {
            return CliResult.NONE; // whatever the sandbox printed, the run is still reported
        }
    }

    @Override
    public RunStatusChanged read(RunStatusChanged event, String raw, Redactor redactor) {
        CliResult result = read(raw);
        if (result.isEmpty()) {
            return event;
        }
        String masked = event.output();
        // no answer (an error result, a cut stream): the output stays the tail, not sent twice in one record
        return result.answer() == null
                ? event.withCliResult(masked, null, masked(result.usage(), redactor))
                : event.withCliResult(redactor.redact(result.answer()), masked, masked(result.usage(), redactor));
    }

    /** The usage with its model name masked too: it is a string the sandbox wrote. */
    private static RunUsage masked(RunUsage usage, Redactor redactor) {
        if (usage == null || usage.model() == null) {
            return usage;
        }
        return new RunUsage(usage.inputTokens(), usage.outputTokens(), usage.cacheReadTokens(),
                usage.cacheWriteTokens(), usage.reasoningTokens(), usage.costUsd(), redactor.redact(usage.model()),
                usage.apiDurationMs(), usage.turns());
    }
}
