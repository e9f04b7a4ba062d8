package io.trimus.run.service.identity;

import io.trimus.commons.problem.ProblemException;
import io.trimus.events.AuditRecord;
import io.trimus.run.repository.identity.UserAccount;

import java.util.Locale;
import java.util.regex.Pattern;

/** What all of identity agrees on about an account: how its email is written, and how it acts in the audit log. */
public final class Accounts {
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[A-Za-z0-9.-]{1,189}");

    private Accounts() {
    }

    /** {@code email} lower-cased, or a 400 problem when it is no email address. */
    public static String checkedEmail(String email) {
        String normalized = email == null ? "" : email.strip().toLowerCase(Locale.ROOT);
        if (normalized.length() > 254 || !EMAIL.matcher(normalized).matches()) {
            throw ProblemException.invalid("email", "must be an email address (at most 254 characters)");
        }
        return normalized;
    }

    /** The user as the actor of an audit record. */
    public static AuditRecord.Actor userActor(UserAccount user) {
        return new AuditRecord.Actor(AuditRecord.Actor.USER, user.id, user.email);
    }
}
