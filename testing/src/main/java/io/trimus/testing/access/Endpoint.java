package io.trimus.testing.access;

/** One REST endpoint and who may call it, as docs/access.md lists it or a service's code declares it. */
public record Endpoint(String method, String path, String who) {
    /** The endpoint without its level, to match a table row to a declaration. */
    public String route() {
        return method + " " + path;
    }
}
