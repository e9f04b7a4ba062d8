package io.trimus.commons.context;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.function.Supplier;

/**
 * Runs reactive work started off a request (a tick, a timer, an open stream's re-check) on a new safe duplicated Vert.x
 * context: Hibernate Reactive wants one, and {@link io.trimus.commons.rows.TenantTransactions} keeps its row scope in
 * its context locals.
 */
public final class FreshContext {
    private FreshContext() {
    }

    /** {@code work}, subscribed on a new duplicated context of {@code vertx}. */
    public static <T> Uni<T> run(Vertx vertx, Supplier<Uni<T>> work) {
        return Uni.createFrom().emitter(emitter -> {
            Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            VertxContextSafetyToggle.setContextSafe(context, true);
            context.runOnContext(ignored -> Uni.createFrom().deferred(work::get)
                    .subscribe().with(emitter::complete, emitter::fail));
        });
    }
}
