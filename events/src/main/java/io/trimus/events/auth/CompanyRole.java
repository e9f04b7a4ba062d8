package io.trimus.events.auth;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * A caller's role in one company, strongest first: {@code admin} (agents, secrets, allowlist and policy, members,
 * tokens), {@code member} (starts, reads and cancels runs) and {@code viewer} (reads). The platform's {@code operator}
 * is not a company role: it is a flag of the caller ({@link Caller#operator()}).
 */
public enum CompanyRole {
    ADMIN, MEMBER, VIEWER;

    /** The role as the API writes it. */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role named {@code text} ({@code admin}, {@code member}, {@code viewer}), if it is one. */
    public static Optional<CompanyRole> parse(String text) {
        return Arrays.stream(values()).filter(role -> role.wireName().equals(text)).findFirst();
    }

    /** Jackson's reader of the wire name. */
    @JsonCreator
    public static CompanyRole fromJson(String text) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException("role must be admin, member or viewer"));
    }

    /** True when this role may do everything {@code needed} may. */
    public boolean covers(CompanyRole needed) {
        return ordinal() <= needed.ordinal();
    }
}
