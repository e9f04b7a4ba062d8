package io.trimus.egress.proxy;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.connection.ConnectionRecorder;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.destination.DestinationResolver;
import io.vertx.core.Vertx;

/** The proxy without masked secrets (no masks served, no interceptor), as the tests of the plain proxy build it. */
final class PlainProxies {
    private PlainProxies() {
    }

    /** A plain proxy that accepts on as many event loops as the host has cores. */
    static ProxyServer server(Vertx vertx, ProxyPolicy policy, DestinationResolver resolver, AnomalyRecorder anomalies,
                              ConnectionRecorder connections, ProxyLimits limits) {
        return server(vertx, policy, resolver, anomalies, connections, limits,
                Runtime.getRuntime().availableProcessors());
    }

    /** @param eventLoops how many event loops accept (and then carry) connections on each port */
    static ProxyServer server(Vertx vertx, ProxyPolicy policy, DestinationResolver resolver, AnomalyRecorder anomalies,
                              ConnectionRecorder connections, ProxyLimits limits, int eventLoops) {
        return new ProxyServer(vertx, policy, resolver, anomalies, connections, limits, eventLoops, null, null);
    }
}
