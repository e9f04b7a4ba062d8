package io.trimus.commons.access;

import io.trimus.events.auth.Caller;
import jakarta.enterprise.context.RequestScoped;

import java.util.Optional;

/** The caller of the request being served, as {@link AccessFilter} established it; empty for anonymous endpoints. */
@RequestScoped
public class CurrentCaller {
    private Caller caller;
    private boolean service;

    void set(Caller caller) {
        this.caller = caller;
    }

    void setService() {
        this.service = true;
    }

    /** The caller, if the request carried a valid user or token credential. */
    public Optional<Caller> get() {
        return Optional.ofNullable(caller);
    }

    /** The caller, for endpoints that require one (never empty behind any level but ANYONE and SERVICE). */
    public Caller require() {
        if (caller == null) {
            throw new IllegalStateException("no caller on an endpoint that requires one");
        }
        return caller;
    }

    /** True when Trimus's own service called. */
    public boolean isService() {
        return service;
    }
}
