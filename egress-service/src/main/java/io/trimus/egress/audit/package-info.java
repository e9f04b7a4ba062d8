/**
 * The audit trail of egress-service's changes: staged in the change's own transaction and relayed to
 * {@code trimus.audit} in order. Entry point: {@link io.trimus.egress.audit.AuditOutbox#add}. Imports no other egress
 * package.
 */
package io.trimus.egress.audit;
