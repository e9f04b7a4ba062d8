package io.trimus.egress.canary;

import io.trimus.events.CanaryCheck;
import io.trimus.events.CanaryResult;

import java.util.List;

/**
 * What a {@link CanaryResult} means for its canary: the status it ends with and the checks as stored, each bounded
 * (the result comes from another service, and its strings from a sandbox's output).
 */
record CanaryOutcome(String status, List<CanaryCheck> checks, String error) {
    static final int MAX_CHECKS = 32;
    static final int MAX_TEXT = 300;
    static final int MAX_ERROR = 2000;

    /**
     * {@code breached} when a check that must fail got through (whatever else happened); {@code failed} when the probe
     * could not run, reported no checks, or something that must work was blocked; else {@code passed}.
     */
    static CanaryOutcome of(CanaryResult result) {
        List<CanaryCheck> checks = result.checks().stream().limit(MAX_CHECKS).map(CanaryOutcome::bounded).toList();
        String error = cut(result.error(), MAX_ERROR);
        String status;
        if (checks.stream().anyMatch(CanaryCheck::breached)) {
            status = Canary.BREACHED;
        } else if (error != null || checks.isEmpty()
                || checks.stream().anyMatch(c -> CanaryCheck.ALLOWED.equals(c.expected()) && !c.passed()
                        && !CanaryCheck.SKIPPED.equals(c.outcome()))) {
            status = Canary.FAILED;
        } else {
            status = Canary.PASSED;
        }
        if (Canary.FAILED.equals(status) && error == null) {
            error = checks.isEmpty() ? "the probe reported no checks"
                    : "something the company allows was blocked: " + String.join(", ", checks.stream()
                            .filter(c -> CanaryCheck.ALLOWED.equals(c.expected()) && !c.passed()).map(CanaryCheck::name)
                            .toList());
        }
        return new CanaryOutcome(status, checks, error);
    }

    /** The checks of {@code status} breached. */
    List<CanaryCheck> breaches() {
        return checks.stream().filter(CanaryCheck::breached).toList();
    }

    private static CanaryCheck bounded(CanaryCheck check) {
        return new CanaryCheck(cut(check.name(), 40), cut(check.target(), MAX_TEXT), cut(check.expected(), 16),
                cut(check.got(), MAX_TEXT), cut(check.outcome(), 16));
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
