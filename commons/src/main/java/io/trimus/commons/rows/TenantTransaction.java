package io.trimus.commons.rows;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a method returning {@code Uni} in one database transaction (joined if one is already open) that PostgreSQL's
 * row-level security limits to the rows {@link #value()} names. Every service method touching the database carries it
 * (instead of Panache's {@code @WithTransaction} / {@code @WithSession}), so no statement runs without a company scope.
 */
@InterceptorBinding
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
public @interface TenantTransaction {
    /** Whose rows the transaction sees; the caller's unless the method is Trimus's own background work. */
    @Nonbinding
    Rows value() default Rows.CALLER;
}
