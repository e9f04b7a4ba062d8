package io.trimus.commons.rows;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/** Runs each {@link TenantTransaction} method through {@link TenantTransactions}. */
@TenantTransaction
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
public class TenantTransactionInterceptor {
    @AroundInvoke
    Object around(InvocationContext invocation) {
        if (!Uni.class.isAssignableFrom(invocation.getMethod().getReturnType())) {
            throw new IllegalStateException("@TenantTransaction needs a method returning Uni: "
                    + invocation.getMethod());
        }
        return TenantTransactions.run(rowsOf(invocation), () -> proceed(invocation));
    }

    private static Rows rowsOf(InvocationContext invocation) {
        TenantTransaction onMethod = invocation.getMethod().getAnnotation(TenantTransaction.class);
        if (onMethod != null) {
            return onMethod.value();
        }
        TenantTransaction onType = invocation.getMethod().getDeclaringClass().getAnnotation(TenantTransaction.class);
        return onType == null ? Rows.CALLER : onType.value();
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
