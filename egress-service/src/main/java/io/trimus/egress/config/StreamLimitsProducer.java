package io.trimus.egress.config;

import io.trimus.commons.streams.StreamLimits;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** Hands commons' {@code StreamAccess} this service's {@code trimus.streams.*} bounds. */
@ApplicationScoped
public class StreamLimitsProducer {
    @Produces
    StreamLimits streamLimits(TrimusConfig config) {
        return config.streams();
    }
}
