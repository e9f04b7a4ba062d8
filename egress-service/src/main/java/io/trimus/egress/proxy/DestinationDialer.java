package io.trimus.egress.proxy;

import io.vertx.core.Future;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Opens the way to an admitted host: resolves it ({@link DestinationResolver}, every address classified), then dials
 * the permitted addresses in turn until one accepts, the name never again; for a host of a masked secret it dials the
 * {@link MaskingInterceptor} instead, which reaches the first permitted address itself.
 */
final class DestinationDialer {
    private DestinationDialer() {
    }

    /** The socket opened, the address it goes to, and for an intercepted connection what the interceptor was told. */
    record Dialled(NetSocket socket, InetAddress address, InterceptedTarget intercepted) {
    }

    /** Why nothing was opened, and the address that was refused or failed last (null when none resolved). */
    static final class NotDialled extends Exception {
        final ProxyRefusal refusal;
        final InetAddress address;

        NotDialled(ProxyRefusal refusal, InetAddress address) {
            super(refusal.reason(), null, false, false);
            this.refusal = refusal;
            this.address = address;
        }
    }

    /**
     * @param intercept for a host of a masked secret, what the interceptor is told (with the address dialled); null
     *                  to dial the host itself
     * @return the opened connection, or a failed future holding {@link NotDialled}
     */
    static Future<Dialled> open(ProxyServer.Parts parts, String host, int port,
                                InterceptedTarget.Partial intercept) {
        return parts.resolver().resolve(host).recover(failed -> Future.failedFuture(
                new NotDialled(ProxyRefusal.UNRESOLVED, null))).compose(destinations -> {
            if (destinations.resolved().isEmpty()) {
                return Future.failedFuture(new NotDialled(ProxyRefusal.UNRESOLVED, null));
            }
            if (destinations.permitted().isEmpty()) {
                return Future.failedFuture(new NotDialled(ProxyRefusal.ADDRESS_DENIED, destinations.resolved().get(0)));
            }
            if (intercept != null) {
                InterceptedTarget target = intercept.at(destinations.permitted().get(0));
                return parts.masking().connect(target, parts.dialer())
                        .map(socket -> new Dialled(socket, target.address(), target))
                        .recover(failed -> Future.failedFuture(new NotDialled(ProxyRefusal.MASKING_UNAVAILABLE,
                                target.address())));
            }
            return dial(parts, destinations.permitted(), 0, port);
        });
    }

    private static Future<Dialled> dial(ProxyServer.Parts parts, List<InetAddress> permitted, int index, int port) {
        InetAddress address = permitted.get(index);
        return parts.dialer().connect(SocketAddress.inetSocketAddress(new InetSocketAddress(address, port)))
                .map(socket -> new Dialled(socket, address, null))
                .recover(failed -> index + 1 < permitted.size() ? dial(parts, permitted, index + 1, port)
                        : Future.failedFuture(new NotDialled(ProxyRefusal.CONNECT_FAILED, address)));
    }
}
