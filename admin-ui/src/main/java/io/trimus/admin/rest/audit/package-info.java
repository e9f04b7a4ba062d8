/**
 * The audit log as pages: a company's for its admins, the whole platform's for operators, newest first. Entry point:
 * {@link io.trimus.admin.rest.audit.CompanyAuditResource}. Imports no other feature.
 */
package io.trimus.admin.rest.audit;
