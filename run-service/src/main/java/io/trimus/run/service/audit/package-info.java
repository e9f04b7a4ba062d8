/**
 * The audit log: each change recorded in its own transaction and staged for {@code trimus.audit}; other services'
 * records stored once. Entry point: {@link io.trimus.run.service.audit.AuditLog}. Depends on service.outbox only;
 * never imports rest or messaging.
 */
package io.trimus.run.service.audit;
