/**
 * The company list and a company's page: its agents, where their code runs, what will keep them from working, and its
 * latest runs. Entry point: {@link io.trimus.admin.rest.company.CompanyResource}. Imports no other feature.
 */
package io.trimus.admin.rest.company;
