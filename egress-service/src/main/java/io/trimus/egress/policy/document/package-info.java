/**
 * Policy as code: a company's whole egress policy (mode, its allowlist, every agent's own list) as one JSON or YAML
 * document, read at once and replaced at once in one transaction, with the diff it makes answered (also without
 * applying it: a dry run). Entries are checked by the allowlist's own rules; nothing here parses an entry. Entry point:
 * {@link io.trimus.egress.policy.document.PolicyDocumentService}. Never imports {@code policy.replica}, dns, the proxy
 * or rest.
 */
package io.trimus.egress.policy.document;
