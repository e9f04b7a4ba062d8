package io.trimus.adapter.run;

import io.trimus.commons.messaging.CloudEventRecords;

import java.net.URI;

/** What every event this service publishes has in common, whichever stage publishes it. */
public final class ServiceEvents {

    /** The CloudEvent source of every event this service publishes. */
    public static final URI SOURCE = CloudEventRecords.source("adapter-lambda-service");

    private ServiceEvents() {
    }
}
