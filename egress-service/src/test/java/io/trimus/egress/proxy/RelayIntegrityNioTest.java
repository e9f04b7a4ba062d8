package io.trimus.egress.proxy;

/**
 * {@link RelayIntegrityTest} on Vert.x's NIO transport: no splice(2) there, so every tunnel is relayed as Netty's
 * buffers ({@code relay.Splice}) under Vert.x's own idle timeout, the fallback of the native transport's splicing.
 */
class RelayIntegrityNioTest extends RelayIntegrityTest {
    @Override
    boolean nativeTransport() {
        return false;
    }
}
