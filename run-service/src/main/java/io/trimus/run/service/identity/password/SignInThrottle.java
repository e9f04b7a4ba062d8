package io.trimus.run.service.identity.password;

import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Refuses password sign-ins to an email for a while once too many failed within that while, so a password cannot be
 * guessed at the speed of the password checks. Counted per email whether or not an account has it (the answer must
 * not tell), in memory, in a fixed table that nothing evicts: each email counts in one cell of each of two rows,
 * picked by a keyed hash (HMAC-SHA256 under a key made at start, so nobody can aim at a cell), and it is refused when
 * both its cells have reached the limit. A flood of made-up emails therefore can neither grow the table nor push an
 * email's count out of it; it can at most add to counts, and a false lockout needs two cells filled by others at
 * once, which the pace of the password checks keeps out of reach. A success does not reset anything (it could reset
 * another email's cells): counts end with their window.
 */
@ApplicationScoped
public class SignInThrottle {
    static final int CELLS = 1 << 16;
    private static final int ROWS = 2;

    private final int maxFailures;
    private final Duration lockout;
    private final Mac keyed;
    private final int[][] counts = new int[ROWS][CELLS];
    private final long[][] since = new long[ROWS][CELLS];

    SignInThrottle(TrimusConfig config) {
        this.maxFailures = config.auth().maxSignInFailures();
        this.lockout = config.auth().signInLockout();
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try {
            this.keyed = Mac.getInstance("HmacSHA256");
            keyed.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    /** How long sign-ins to {@code email} are still refused, if they are. */
    public synchronized Optional<Duration> refusedFor(String email, Instant now) {
        int[] cells = cellsOf(email);
        Duration left = null;
        for (int row = 0; row < ROWS; row++) {
            int cell = cells[row];
            if (!live(row, cell, now) || counts[row][cell] < maxFailures) {
                return Optional.empty();
            }
            Duration remaining = Duration.between(now, Instant.ofEpochMilli(since[row][cell]).plus(lockout));
            left = left == null || remaining.compareTo(left) < 0 ? remaining : left;
        }
        return Optional.of(left);
    }

    /** A wrong password (or unknown email) for {@code email}. */
    public synchronized void failed(String email, Instant now) {
        int[] cells = cellsOf(email);
        for (int row = 0; row < ROWS; row++) {
            int cell = cells[row];
            if (live(row, cell, now)) {
                counts[row][cell] = counts[row][cell] == Integer.MAX_VALUE ? Integer.MAX_VALUE : counts[row][cell] + 1;
            } else {
                counts[row][cell] = 1;
                since[row][cell] = now.toEpochMilli();
            }
        }
    }

    private boolean live(int row, int cell, Instant now) {
        return counts[row][cell] > 0 && now.isBefore(Instant.ofEpochMilli(since[row][cell]).plus(lockout));
    }

    private int[] cellsOf(String email) {
        byte[] digest = keyed.doFinal(email.getBytes(StandardCharsets.UTF_8));
        return new int[]{((digest[0] & 0xff) << 8 | (digest[1] & 0xff)) % CELLS,
                ((digest[2] & 0xff) << 8 | (digest[3] & 0xff)) % CELLS};
    }
}
