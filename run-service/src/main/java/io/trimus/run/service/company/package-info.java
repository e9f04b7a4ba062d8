/**
 * Companies, the tenants: creating, finding and paging them. Entry point:
 * {@link io.trimus.run.service.company.CompanyService}. Never imports rest or messaging.
 */
package io.trimus.run.service.company;
