package io.trimus.commons.rows;

import io.quarkus.arc.Arc;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.CurrentCaller;

import java.util.function.Supplier;

/**
 * Opens the transactions of {@link TenantTransaction} and of code that opens one itself (like Panache's {@code
 * Panache.withTransaction}): each one first
 * sets the company scope PostgreSQL's row-level security policies read, transaction-local, so it ends with the
 * transaction and a pooled connection never carries one caller's scope into another's. The outermost call decides the
 * scope: a nested {@link Rows#CALLER} call joins it as it is, a nested {@link Rows#ALL_COMPANIES} call widens it for
 * its own work only and then puts the outer scope back.
 */
public final class TenantTransactions {
    private static final String SCOPE_KEY = TenantTransactions.class.getName() + ".scope";
    private static final String SET_SCOPE = "select set_config('" + RowVisibility.ALL_COMPANIES_SETTING
            + "', :all, true), set_config('" + RowVisibility.COMPANY_IDS_SETTING + "', :ids, true)";

    private TenantTransactions() {
    }

    /** Runs {@code work} in a transaction limited to {@code rows}. */
    public static <T> Uni<T> run(Rows rows, Supplier<Uni<T>> work) {
        return Uni.createFrom().deferred(() -> {
            RowVisibility outer = ContextLocals.<RowVisibility>get(SCOPE_KEY).orElse(null);
            if (outer != null && rows == Rows.CALLER) {
                // the outermost method decided the scope: a helper it calls works within it
                return Panache.withTransaction(work);
            }
            return open(rows == Rows.ALL_COMPANIES ? RowVisibility.all() : ofCaller(), outer, work);
        });
    }

    /**
     * Runs {@code work} in a transaction limited to {@code visibility}, for work done on one company's behalf outside
     * a request; inside another transaction it applies to {@code work} only.
     */
    public static <T> Uni<T> within(RowVisibility visibility, Supplier<Uni<T>> work) {
        return Uni.createFrom().deferred(() -> open(visibility,
                ContextLocals.<RowVisibility>get(SCOPE_KEY).orElse(null), work));
    }

    private static <T> Uni<T> open(RowVisibility wanted, RowVisibility outer, Supplier<Uni<T>> work) {
        if (wanted.equals(outer)) {
            return Panache.withTransaction(work);
        }
        return Panache.withTransaction(() -> apply(wanted).chain(ignored -> work.get())
                .call(() -> outer == null ? forget() : apply(outer))
                .onFailure().call(() -> outer == null ? forget() : apply(outer)));
    }

    /** Runs {@code work} in a transaction limited to the request's caller. */
    public static <T> Uni<T> asCaller(Supplier<Uni<T>> work) {
        return run(Rows.CALLER, work);
    }

    /** Runs {@code work} in a transaction that sees every company: Trimus's own background work. */
    public static <T> Uni<T> acrossCompanies(Supplier<Uni<T>> work) {
        return run(Rows.ALL_COMPANIES, work);
    }

    private static RowVisibility ofCaller() {
        var requestContext = Arc.container().requestContext();
        if (!requestContext.isActive()) {
            return RowVisibility.none();
        }
        return RowVisibility.of(Arc.container().instance(CurrentCaller.class).get());
    }

    private static Uni<Void> apply(RowVisibility visibility) {
        ContextLocals.put(SCOPE_KEY, visibility);
        return Panache.getSession().chain(session -> session.createNativeQuery(SET_SCOPE)
                .setParameter("all", visibility.allCompaniesSetting())
                .setParameter("ids", visibility.companyIdsSetting())
                .getSingleResult()).replaceWithVoid();
    }

    private static Uni<Void> forget() {
        ContextLocals.remove(SCOPE_KEY);
        return Uni.createFrom().voidItem();
    }
}
