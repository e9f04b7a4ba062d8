package io.trimus.events.adapter;

/** An adapter_config (or adapter_type) that breaks its contract; names the offending field for the client. */
public class AdapterConfigException extends RuntimeException {
    private final String field;

    public AdapterConfigException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The JSON path of the wrong field, e.g. {@code adapter_config.pids_limit}. */
    public String field() {
        return field;
    }
}
