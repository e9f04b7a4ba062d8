package io.trimus.run.repository;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** A built-in account: a person signing in to the dashboard with email and password (bcrypt), or an operator. */
@Entity
@Table(name = "app_user")
public class UserAccount {
    @Id
    public UUID id;
    /** Lower-cased. */
    public String email;
    /** bcrypt; null until the person has set a password through a setup link. */
    public String passwordHash;
    public boolean operator;
    public Instant createdAt;

    /** A new account without a password, not yet persisted. */
    public static UserAccount of(String email, boolean operator) {
        UserAccount user = new UserAccount();
        user.id = UUID.randomUUID();
        user.email = email;
        user.operator = operator;
        user.createdAt = Instant.now();
        return user;
    }
}
