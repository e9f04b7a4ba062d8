package io.trimus.adapter.config;

import java.util.Optional;

/** Fair shares between the companies whose runs share this service's slots (docker, lambda, A2A). */
public interface CompanyConfig {
    /**
     * Container runs (docker, claude_sandbox, codex_sandbox) of one company executed or queued for a slot at the
     * same time; its further runs wait in order, still DISPATCHED and cancellable, and start as the company's own
     * runs end, while other companies' runs go ahead (TRIMUS_COMPANY_MAX_CONCURRENT_RUNS, default half of
     * TRIMUS_DOCKER_MAX_CONCURRENT_RUNS rounded down, at least 1).
     */
    Optional<Integer> maxConcurrentRuns();

    /**
     * Lambda calls of one company in flight or queued for a slot at the same time; its further calls wait in order,
     * still DISPATCHED and cancellable (timeout_ms counts from when a call leaves the queue), while other
     * companies' calls go ahead, so one company's slow endpoint cannot hold every slot
     * (TRIMUS_COMPANY_MAX_CONCURRENT_LAMBDA_RUNS, default half of TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS rounded down,
     * at least 1).
     */
    Optional<Integer> maxConcurrentLambdaRuns();

    /**
     * Runs of one company exchanging with A2A peers or queued for a slot at the same time; its further runs wait in
     * order, still DISPATCHED and cancellable (timeout_ms counts from when a run leaves the queue), while other
     * companies' runs go ahead, so one company's peer that holds its calls open cannot take every slot
     * (TRIMUS_COMPANY_MAX_CONCURRENT_A2A_RUNS, default half of TRIMUS_A2A_MAX_CONCURRENT_RUNS rounded down, at
     * least 1).
     */
    Optional<Integer> maxConcurrentA2aRuns();
}
