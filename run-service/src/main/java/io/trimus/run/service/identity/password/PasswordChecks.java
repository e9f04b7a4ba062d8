package io.trimus.run.service.identity.password;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.AuditRecord;
import io.trimus.run.config.TrimusConfig;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where bcrypt runs: on a worker thread, at most TRIMUS_AUTH_MAX_CONCURRENT_PASSWORD_CHECKS at once, the rest waiting
 * their turn (at most TRIMUS_AUTH_MAX_WAITING_PASSWORD_CHECKS, then 429) in {@link FairShares} by where the request
 * came from: the peer address (an IPv6 peer by its /64), then the X-Forwarded-For it claims (the dashboard names the
 * browser it signs in). So a flood of sign-ins from one source gets its share of the CPU, not all of it, and another
 * person still signs in within a few checks' time.
 */
@ApplicationScoped
public class PasswordChecks {
    private final Passwords passwords;
    private final FairShares shares;
    private final Vertx vertx;

    PasswordChecks(TrimusConfig config, Vertx vertx) {
        this.passwords = new Passwords(config.auth().bcryptCost());
        this.shares = new FairShares(config.auth().maxConcurrentPasswordChecks(),
                config.auth().maxWaitingPasswordChecks());
        this.vertx = vertx;
    }

    /** Whether {@code password} matches {@code hash} (null: no account, the same time spent), in turn for {@code from}. */
    public Uni<Boolean> matches(AuditRecord.Source from, String hash, String password) {
        return inTurn(from, () -> passwords.matches(hash, password.toCharArray()));
    }

    /** The bcrypt hash of {@code password}, in turn for {@code from}. */
    public Uni<String> hash(AuditRecord.Source from, String password) {
        return inTurn(from, () -> passwords.hash(password.toCharArray()));
    }

    private <T> Uni<T> inTurn(AuditRecord.Source from, Callable<T> work) {
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean gone = new AtomicBoolean();
            emitter.onTermination(() -> gone.set(true));   // before a grant only by cancellation: the caller left
            Context context = Vertx.currentContext() != null ? Vertx.currentContext() : vertx.getOrCreateContext();
            shares.ask(peerOf(from), from.forwardedFor() == null ? "" : from.forwardedFor(),
                    () -> context.runOnContext(v -> run(context, work, emitter, gone)),
                    () -> context.runOnContext(v -> emitter.fail(new ProblemException(429, "Too many requests",
                            "too many sign-ins at once; try again in a moment", null))));
        });
    }

    // the slot is the work's, not the caller's: it is given back when bcrypt ends, whatever became of the request
    private <T> void run(Context context, Callable<T> work, UniEmitter<? super T> emitter, AtomicBoolean gone) {
        if (gone.get()) {
            shares.release();
            return;
        }
        context.executeBlocking(work, false).onComplete(done -> {
            shares.release();
            if (done.succeeded()) {
                emitter.complete(done.result());
            } else {
                emitter.fail(done.cause());
            }
        });
    }

    /** The source a peer address counts as: the address, or for IPv6 its /64 (one host usually holds a whole one). */
    static String peerOf(AuditRecord.Source from) {
        String ip = from.ip();
        if (ip == null || !ip.contains(":")) {
            return ip == null ? "" : ip;
        }
        try {
            byte[] address = InetAddress.getByName(ip.replaceAll("[\\[\\]]|%.*$", "")).getAddress();
            return address.length == 16 ? HexFormat.of().formatHex(Arrays.copyOf(address, 8)) + "::/64" : ip;
        } catch (UnknownHostException notALiteral) {
            return ip;
        }
    }
}
