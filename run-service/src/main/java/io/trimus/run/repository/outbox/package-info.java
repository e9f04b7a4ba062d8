/**
 * The transactional outbox: {@link io.trimus.run.repository.outbox.OutboxEvent} rows staged with each change and
 * published after commit. Entry point: {@link io.trimus.run.repository.outbox.OutboxRepository}. Never imports service,
 * rest or messaging.
 */
package io.trimus.run.repository.outbox;
