package io.trimus.run.repository.identity;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * A built-in account: a person signing in to the dashboard with email and password (bcrypt), or through the identity
 * provider, or an operator. Trimus sends no email, so an account is only as much that person's as whoever vouches for
 * it: {@link #vouchedBy} decides who may ever hand out a setup link for it.
 */
@Entity
@Table(name = "app_user")
public class UserAccount {
    /** Made by a company admin's invitation: the person is whoever that admin handed the setup link to. */
    public static final String BY_COMPANY = "company";
    /** Made, or given its setup link, by an operator (the bootstrap operator included). */
    public static final String BY_OPERATOR = "operator";
    /** Signed in through the identity provider, which vouches for the email: never a setup link again. */
    public static final String BY_PROVIDER = "provider";

    @Id
    public UUID id;
    /** Lower-cased. */
    public String email;
    /** bcrypt; null until the person has set a password through a setup link. */
    public String passwordHash;
    public boolean operator;
    public Instant createdAt;
    /** {@link #BY_COMPANY}, {@link #BY_OPERATOR} or {@link #BY_PROVIDER}. */
    public String vouchedBy;
    /**
     * The company whose invitation made the account (null otherwise, or when that company is gone): the one company
     * shown whether its password is set, and, while the company vouches for it, the only one that may add it.
     */
    public UUID invitedBy;

    /**
     * A new account without a password that an invitation into the company makes, not yet persisted: vouched for by
     * the company, or by the operator when an operator invited it (the operator hands the setup link over).
     */
    public static UserAccount invited(String email, UUID companyId, boolean byOperator) {
        UserAccount user = of(email, false, byOperator ? BY_OPERATOR : BY_COMPANY);
        user.invitedBy = companyId;
        return user;
    }

    /** A new operator account without a password, not yet persisted. */
    public static UserAccount operator(String email) {
        return of(email, true, BY_OPERATOR);
    }

    /** A new account the identity provider signs in, without a password, not yet persisted. */
    public static UserAccount ofProvider(String email) {
        return of(email, false, BY_PROVIDER);
    }

    private static UserAccount of(String email, boolean operator, String vouchedBy) {
        UserAccount user = new UserAccount();
        user.id = UUID.randomUUID();
        user.email = email;
        user.operator = operator;
        user.vouchedBy = vouchedBy;
        user.createdAt = Instant.now();
        return user;
    }

    /** True while the account may be given a setup link at all: no password yet, and no identity provider's. */
    public boolean awaitsSetup() {
        return passwordHash == null && !BY_PROVIDER.equals(vouchedBy);
    }
}
