package io.trimus.egress.proxy;

/**
 * {@link RelayIntegrityTest} on Vert.x's NIO transport (where a deployment without the epoll library would run):
 * the same relay ({@code relay.Splice}) over the JDK's selector.
 */
class RelayIntegrityNioTest extends RelayIntegrityTest {
    @Override
    boolean nativeTransport() {
        return false;
    }
}
