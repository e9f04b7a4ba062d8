/**
 * The outbox: events staged in the caller's transaction, checked to fit one Kafka record, and the after-commit hook
 * that wakes the relay ({@link io.trimus.run.service.outbox.OutboxStaged}). Entry point:
 * {@link io.trimus.run.service.outbox.Outbox}. Never imports messaging: the relay observes the event.
 */
package io.trimus.run.service.outbox;
