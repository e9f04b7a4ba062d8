package io.trimus.adapter.run;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;

/** The service's clock (UTC), a bean so the parts that keep time (the remote watch, the task check) take it injected. */
public class ServiceClock {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
