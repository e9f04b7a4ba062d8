package io.trimus.run.repository.run;

import io.trimus.events.RunState;
import io.trimus.events.RunUsage;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.DynamicUpdate;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * One execution of an agent, from QUEUED to its terminal state, with its outcome. Written back column by column (only
 * what changed): the lease consumer records starts with a bulk update while another transaction may hold the same run
 * loaded, and writing the whole row back would put the start it did not see over the recorded one.
 */
@Entity
@Table(name = "run")
@DynamicUpdate
public class Run {
    @Id
    public UUID id;
    public UUID companyId;
    public UUID agentId;
    public String adapterType;
    @Enumerated(EnumType.STRING)
    public RunState status;
    public String issueId;
    public String issueTitle;
    public String issueBody;
    public String input;
    public Integer exitCode;
    /** What the run answered: for an agent CLI its final answer, else the tail of what the run printed. */
    public String output;
    /** An agent CLI run's raw stream (the capped, redacted tail of what it printed); null for every other run. */
    public String rawOutput;
    public String error;
    /** Usage the run's agent CLI reported, each null when it reported none (see io.trimus.events.RunUsage). */
    public Long inputTokens;
    public Long outputTokens;
    public Long cacheReadTokens;
    public Long cacheWriteTokens;
    public Long reasoningTokens;
    /** US dollars, at most 6 decimals (numeric(18,6)). */
    public BigDecimal costUsd;
    public String model;
    public Long apiDurationMs;
    public Integer turns;
    /** Policy decisions noted on the run, one per line; null when none. */
    public String notes;
    public Instant queuedAt;
    public Instant dispatchedAt;
    public Instant startedAt;
    public Instant finishedAt;
    /** The adapter process that reported the run last (its lease instance); null before dispatch or after recovery. */
    public String heldBy;
    /** Since when {@link #heldBy} holds it (this service's clock). */
    public Instant heldSince;
    /** When a lease beat first listed the run as started; null while nothing of it may have begun. */
    public Instant startRecordedAt;
    /** How many times its request was published (1, more after a recovery dispatched it again). */
    public int dispatchAttempts = 1;
    /** The id an A2A peer gave this run's task (a remote agent naming a peer); the first reported, never replaced. */
    public String peerTaskId;
    /** The A2A contextId of a run started over A2A, the same in every answer about its task; null otherwise. */
    public String a2aContextId;
    /** The messageId of the A2A message that started the run; null otherwise. */
    public String a2aMessageId;
    /** The token or account that started the run over A2A (its task is that caller's); null otherwise. */
    public UUID a2aCaller;

    /** What the run's CLI reported it used, or null when it reported nothing. */
    public RunUsage usage() {
        RunUsage usage = new RunUsage(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens,
                costUsd == null ? null : costUsd.stripTrailingZeros(), model, apiDurationMs, turns);
        return usage.isEmpty() ? null : usage;
    }

    /** Keeps what the run's CLI reported it used; null keeps nothing. */
    public void keepUsage(RunUsage usage) {
        if (usage == null) {
            return;
        }
        inputTokens = usage.inputTokens();
        outputTokens = usage.outputTokens();
        cacheReadTokens = usage.cacheReadTokens();
        cacheWriteTokens = usage.cacheWriteTokens();
        reasoningTokens = usage.reasoningTokens();
        costUsd = usage.costUsd();
        model = usage.model();
        apiDurationMs = usage.apiDurationMs();
        turns = usage.turns();
    }
}
