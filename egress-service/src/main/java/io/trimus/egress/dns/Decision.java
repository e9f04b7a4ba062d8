package io.trimus.egress.dns;

import io.trimus.egress.sandbox.Sandbox;

/**
 * The policy's answer for one query.
 *
 * @param verdict what to do
 * @param sandbox the attributed sandbox, null for an unattributed source
 * @param qname   the normalised name (the raw one when it could not be normalised, empty without a question)
 * @param qtype   the query type's mnemonic, e.g. {@code A}, {@code HTTPS} (empty without a question)
 * @param type    the numeric query type (-1 without a question)
 */
public record Decision(Verdict verdict, Sandbox sandbox, String qname, String qtype, int type) {
}
