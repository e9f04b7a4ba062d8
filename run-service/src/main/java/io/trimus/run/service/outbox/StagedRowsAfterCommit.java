package io.trimus.run.service.outbox;

import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransaction;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The transaction hook of the outbox: around the outermost {@link TenantTransaction} method of a call (outside the
 * interceptor that opens and commits its transaction), it fires {@link OutboxStaged} once the transaction committed,
 * if {@link Outbox#add} staged a row in it. So the relay is woken in this one place, after commit, whoever wrote the
 * row. A transaction opened by hand ({@code TenantTransactions.acrossCompanies}) is not seen: its rows wait for the
 * relay's next poll, as does a row whose annotated method ran inside such a transaction (its early wake finds nothing
 * committed yet).
 */
@TenantTransaction
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class StagedRowsAfterCommit {
    private static final String STAGED = StagedRowsAfterCommit.class.getName() + ".staged";

    @Inject
    Event<OutboxStaged> staged;

    @AroundInvoke
    Object around(InvocationContext invocation) throws Exception {
        if (!Uni.class.isAssignableFrom(invocation.getMethod().getReturnType())) {
            return invocation.proceed();
        }
        return Uni.createFrom().deferred(() -> {
            if (!VertxContext.isOnDuplicatedContext() || ContextLocals.get(STAGED).isPresent()) {
                return proceed(invocation);   // nested: the outermost method's transaction commits the rows
            }
            AtomicBoolean rows = new AtomicBoolean();
            Context context = Vertx.currentContext();
            ContextLocals.put(STAGED, rows);
            return proceed(invocation)
                    .invoke(() -> {
                        if (rows.get()) {
                            staged.fire(new OutboxStaged());
                        }
                    })
                    // from the context it was put on, wherever the call ends
                    .onTermination().invoke(() -> context.removeLocal(STAGED));
        });
    }

    /** Notes that the current transaction staged a row; called by {@link Outbox#add}. */
    static void noteStaged() {
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.<AtomicBoolean>get(STAGED).ifPresent(rows -> rows.set(true));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Uni<T> proceed(InvocationContext invocation) {
        try {
            return (Uni<T>) invocation.proceed();
        } catch (Exception e) {
            return Uni.createFrom().failure(e);
        }
    }
}
