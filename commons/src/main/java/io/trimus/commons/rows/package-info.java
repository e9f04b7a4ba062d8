/**
 * PostgreSQL row-level security from the service side: every transaction names the companies whose rows it may see,
 * from the caller of the request or as Trimus's own background work, and the service's database role is checked at
 * start. Entry point: {@link io.trimus.commons.rows.TenantTransaction}. May read the caller
 * ({@code commons.access}); never imports a service.
 */
package io.trimus.commons.rows;
