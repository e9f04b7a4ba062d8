/**
 * Accounts and credentials: a company's members and API tokens (its admins' pages), the operators' tokens and
 * accounts. run-service decides and refuses; these pages ask and show. Entry point:
 * {@link io.trimus.admin.rest.account.MembersResource}. Imports no other feature.
 */
package io.trimus.admin.rest.account;
