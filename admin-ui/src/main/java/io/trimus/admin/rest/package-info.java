/**
 * The dashboard's pages, one sub-package per feature (overview, companies, runs, egress, audit, accounts, sign-in,
 * live feeds), and what they share here: every failure as a page with one sentence, and ids from paths. Entry point:
 * {@link io.trimus.admin.rest.ErrorPages}. Resources translate HTTP to backend calls and views; this package never
 * imports its feature sub-packages, and nothing outside {@code rest} imports it.
 */
package io.trimus.admin.rest;
