package io.trimus.egress.proxy.destination;

import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.vertx.core.Future;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Opens the way to an admitted host: resolves it ({@link DestinationResolver}, every address classified), then dials
 * the permitted addresses in turn until one accepts, the name never again. A connection that must not go straight to
 * the host (a host of a masked secret) takes {@link #permitted} alone and dials the first address its own way.
 */
public final class DestinationDialer {
    private DestinationDialer() {
    }

    /** The socket opened and the address it goes to. */
    public record Dialled(NetSocket socket, InetAddress address) {
    }

    /** Why nothing was opened, and the address that was refused or failed last (null when none resolved). */
    public static final class NotDialled extends Exception {
        private final ProxyRefusal refusal;
        private final InetAddress address;

        public NotDialled(ProxyRefusal refusal, InetAddress address) {
            super(refusal.reason(), null, false, false);
            this.refusal = refusal;
            this.address = address;
        }

        /** Why the connection is refused. */
        public ProxyRefusal refusal() {
            return refusal;
        }

        /** The address refused or failed last, null when none resolved. */
        public InetAddress address() {
            return address;
        }
    }

    /** Resolves {@code host} and dials its permitted addresses on {@code port} in turn; fails with NotDialled. */
    public static Future<Dialled> open(DestinationResolver resolver, NetClient dialer, String host, int port) {
        return permitted(resolver, host).compose(addresses -> dial(dialer, addresses, 0, port));
    }

    /**
     * The addresses of {@code host} the proxy may dial, in order, never empty; a failed future holding
     * {@link NotDialled} when it resolves to none ({@code unresolved}) or to none permitted ({@code address_denied}).
     */
    public static Future<List<InetAddress>> permitted(DestinationResolver resolver, String host) {
        return resolver.resolve(host).recover(failed -> Future.failedFuture(
                new NotDialled(ProxyRefusal.UNRESOLVED, null))).compose(destinations -> {
            if (destinations.resolved().isEmpty()) {
                return Future.failedFuture(new NotDialled(ProxyRefusal.UNRESOLVED, null));
            }
            if (destinations.permitted().isEmpty()) {
                return Future.failedFuture(new NotDialled(ProxyRefusal.ADDRESS_DENIED, destinations.resolved().get(0)));
            }
            return Future.succeededFuture(destinations.permitted());
        });
    }

    private static Future<Dialled> dial(NetClient dialer, List<InetAddress> permitted, int index, int port) {
        InetAddress address = permitted.get(index);
        return dialer.connect(SocketAddress.inetSocketAddress(new InetSocketAddress(address, port)))
                .map(socket -> new Dialled(socket, address))
                .recover(failed -> index + 1 < permitted.size() ? dial(dialer, permitted, index + 1, port)
                        : Future.failedFuture(new NotDialled(ProxyRefusal.CONNECT_FAILED, address)));
    }
}
