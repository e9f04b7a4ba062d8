package io.trimus.run.service.identity.password;

import io.trimus.commons.problem.ProblemException;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * Built-in accounts' passwords: bcrypt (Bouncy Castle's OpenBSDBCrypt, {@code $2b$}) with a per-password salt. A
 * password is 12 to 72 bytes of UTF-8 (bcrypt reads no further than 72). Checking an unknown account still spends one
 * bcrypt, so timing does not tell which emails have accounts.
 */
public final class Passwords {
    static final int MIN_CHARS = 12;
    static final int MAX_BYTES = 72;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final int cost;
    private final String decoy;

    public Passwords(int cost) {
        if (cost < 4 || cost > 16) {
            throw new IllegalArgumentException("TRIMUS_AUTH_BCRYPT_COST must be 4 to 16, was " + cost);
        }
        this.cost = cost;
        this.decoy = hash("decoy-password-never-matches".toCharArray());
    }

    /** Fails with a 400 problem on {@code password} when it is too short or too long. */
    public static void requireAcceptable(String password) {
        if (password == null || password.codePointCount(0, password.length()) < MIN_CHARS) {
            throw ProblemException.invalid("password", "must be at least " + MIN_CHARS + " characters");
        }
        if (password.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw ProblemException.invalid("password", "must be at most " + MAX_BYTES + " bytes (UTF-8)");
        }
    }

    /** The bcrypt hash of the password. */
    public String hash(char[] password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return OpenBSDBCrypt.generate("2b", password, salt, cost);
    }

    /** True when {@code password} matches {@code hash}; with a null hash it spends the same time and says false. */
    public boolean matches(String hash, char[] password) {
        if (password.length == 0 || new String(password).getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            OpenBSDBCrypt.checkPassword(decoy, "x".toCharArray());
            return false;
        }
        boolean matched = OpenBSDBCrypt.checkPassword(hash == null ? decoy : hash, password);
        return hash != null && matched;
    }
}
