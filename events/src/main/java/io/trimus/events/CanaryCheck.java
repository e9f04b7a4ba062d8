package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.Objects;

/**
 * One check of a canary ({@link CanaryResult}): what the probe sandbox tried, what the policy promises and what
 * happened.
 *
 * @param name     the check, one of {@link #NAMES}
 * @param target   what was tried, e.g. {@code 169.254.169.254:80} or {@code CONNECT 1.1.1.1:443 via 172.30.0.1:3128}
 * @param expected {@link #BLOCKED} for what must fail, {@link #ALLOWED} for what must work
 * @param got      what happened, in words: {@code NXDOMAIN}, {@code HTTP 403}, {@code timed out}, {@code connected},
 *                 {@code connection refused by the host}, {@code resolved to 172.30.0.1}
 * @param outcome  {@link #BLOCKED}, {@link #ALLOWED}, or {@link #SKIPPED} when the check could not be tried (no
 *                 allow-listed host to try)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CanaryCheck(String name, String target, String expected, String got, String outcome) {
    public static final String BLOCKED = "blocked";
    public static final String ALLOWED = "allowed";
    public static final String SKIPPED = "skipped";

    public static final String UNLISTED_NAME = "unlisted_name";
    public static final String UNLISTED_NAME_VIA_PROXY = "unlisted_name_via_proxy";
    public static final String IP_LITERAL = "ip_literal";
    public static final String IP_LITERAL_VIA_PROXY = "ip_literal_via_proxy";
    public static final String METADATA = "metadata";
    public static final String METADATA_VIA_PROXY = "metadata_via_proxy";
    public static final String UNLISTED_PORT = "unlisted_port";
    public static final String BRIDGE_ROUTE = "bridge_route";
    public static final String ALLOWED_HOST = "allowed_host";

    /** Every check a canary makes, in the order it makes them. */
    public static final java.util.List<String> NAMES = java.util.List.of(UNLISTED_NAME, UNLISTED_NAME_VIA_PROXY,
            IP_LITERAL, IP_LITERAL_VIA_PROXY, METADATA, METADATA_VIA_PROXY, UNLISTED_PORT, BRIDGE_ROUTE, ALLOWED_HOST);

    /** A check of something that must fail. */
    public static CanaryCheck mustFail(String name, String target, String got, boolean gotThrough) {
        return new CanaryCheck(name, target, BLOCKED, got, gotThrough ? ALLOWED : BLOCKED);
    }

    /** A check of something that must work. */
    public static CanaryCheck mustWork(String name, String target, String got, boolean worked) {
        return new CanaryCheck(name, target, ALLOWED, got, worked ? ALLOWED : BLOCKED);
    }

    /** A check that could not be tried, and why. */
    public static CanaryCheck skipped(String name, String expected, String why) {
        return new CanaryCheck(name, null, expected, why, SKIPPED);
    }

    /** True when something that must fail got through: the canary is breached. */
    public boolean breached() {
        return BLOCKED.equals(expected) && ALLOWED.equals(outcome);
    }

    /** True when the check went as the policy promises (a skipped check is neither passed nor breached). */
    public boolean passed() {
        return Objects.equals(expected, outcome);
    }
}
