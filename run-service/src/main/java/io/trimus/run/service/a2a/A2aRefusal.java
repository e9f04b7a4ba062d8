package io.trimus.run.service.a2a;

import io.a2a.spec.JSONRPCError;

/** A JSON-RPC call refused with this error object (answered with HTTP 200, as JSON-RPC wants). */
public class A2aRefusal extends RuntimeException {
    private final transient JSONRPCError error;

    public A2aRefusal(JSONRPCError error) {
        super(error.getMessage(), null, false, false);
        this.error = error;
    }

    /** The error object to answer with. */
    public JSONRPCError error() {
        return error;
    }
}
