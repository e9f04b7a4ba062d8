package io.trimus.commons.access;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares who may call a REST endpoint (on the method, or on the class for all its methods). {@link AccessFilter}
 * refuses every call to an endpoint without it, so an endpoint added without a decision is closed, not open.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Allowed {
    Access value();
}
