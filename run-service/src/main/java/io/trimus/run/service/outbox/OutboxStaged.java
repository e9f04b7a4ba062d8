package io.trimus.run.service.outbox;

/**
 * CDI event: a transaction that staged outbox rows has committed, so the relay may publish them now rather than at its
 * next poll. Fired by {@link StagedRowsAfterCommit}; observed by the relay in the messaging layer.
 */
public record OutboxStaged() {
}
