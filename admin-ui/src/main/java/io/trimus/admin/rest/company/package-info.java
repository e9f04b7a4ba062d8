/**
 * The company list and a company's page: its agents, where their code runs, what will keep them from working, its
 * latest runs and its egress canaries (the page turns red when one got through). Entry points:
 * {@link io.trimus.admin.rest.company.CompanyResource}, {@link io.trimus.admin.rest.company.CanaryResource}. Imports no
 * other feature.
 */
package io.trimus.admin.rest.company;
