package io.trimus.run.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;

/** The clock of beans that judge time (the lease book, the worker list): the system's, UTC; a test hands its own. */
@Singleton
public class ClockProducer {
    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
