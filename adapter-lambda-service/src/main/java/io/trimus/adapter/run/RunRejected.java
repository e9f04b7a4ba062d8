package io.trimus.adapter.run;

/**
 * A policy refusal before anything starts (a gate that is off, a binary outside the allowlist, secrets that do not
 * open): the dispatcher reports the run REJECTED with this sentence.
 */
public class RunRejected extends RuntimeException {
    public RunRejected(String reason) {
        super(reason, null, false, false);
    }
}
