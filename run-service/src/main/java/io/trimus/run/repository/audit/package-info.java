/**
 * The stored audit log: {@link io.trimus.run.repository.audit.AuditEntry} and its repository. Entry point:
 * {@link io.trimus.run.repository.audit.AuditEntryRepository}. Never imports service, rest or messaging.
 */
package io.trimus.run.repository.audit;
