package io.trimus.admin.client;

/** The services the dashboard reads from, by the name a person would recognise in an error message. */
public enum Backend {
    RUN_SERVICE("run-service"),
    EGRESS_SERVICE("egress-service");

    private final String displayName;

    Backend(String displayName) {
        this.displayName = displayName;
    }

    /** The service's name as shown to people, e.g. {@code run-service}. */
    public String displayName() {
        return displayName;
    }
}
