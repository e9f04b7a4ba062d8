/**
 * Companies, the tenants: {@link io.trimus.run.repository.company.Company} and its repository. Entry point:
 * {@link io.trimus.run.repository.company.CompanyRepository}. Never imports service, rest or messaging.
 */
package io.trimus.run.repository.company;
