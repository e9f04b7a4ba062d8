package io.trimus.egress.proxy;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.AbstractSniHandler;
import io.netty.util.concurrent.Future;

/**
 * Reads the server name (SNI) of a TLS ClientHello from the first bytes a client sends into a tunnel, without
 * terminating TLS: Netty's own ClientHello parsing ({@link AbstractSniHandler}) on a detached channel, fed a copy of
 * the bytes. The bytes themselves are forwarded untouched once the name is known to match.
 */
public final class ClientHelloSni {
    /** A ClientHello longer than this is not waited for (real ones, post-quantum key shares included, are ~2 KiB). */
    public static final int MAX_CLIENT_HELLO_BYTES = 16 * 1024;

    private static final byte TLS_HANDSHAKE = 22;
    private static final byte TLS_MAJOR_VERSION = 3;

    private ClientHelloSni() {
    }

    /** What the first bytes say. */
    public sealed interface Result {
    }

    /** The ClientHello is not complete yet. */
    public record NeedMore() implements Result {
    }

    /** The bytes are no TLS handshake. */
    public record NotTls() implements Result {
    }

    /** A complete ClientHello; {@code serverName} is null when it names none. */
    public record Hello(String serverName) implements Result {
    }

    /** Inspects everything the client sent so far (from its first byte). */
    public static Result inspect(byte[] firstBytes) {
        // Netty reads a record that is no handshake as "a ClientHello without a name": tell plain bytes apart here
        if (firstBytes.length >= 1 && firstBytes[0] != TLS_HANDSHAKE
                || firstBytes.length >= 2 && firstBytes[1] != TLS_MAJOR_VERSION) {
            return new NotTls();
        }
        String[] name = {null};
        boolean[] complete = {false};
        EmbeddedChannel channel = new EmbeddedChannel(new AbstractSniHandler<Void>(MAX_CLIENT_HELLO_BYTES, 0L) {
            @Override
            protected Future<Void> lookup(ChannelHandlerContext ctx, String hostname) {
                name[0] = hostname;
                complete[0] = true;
                return ctx.executor().newSucceededFuture(null);
            }

            @Override
            protected void onLookupComplete(ChannelHandlerContext ctx, String hostname, Future<Void> future) {
                // the name is all this needs; the channel is discarded
            }
        });
        try {
            channel.writeInbound(Unpooled.wrappedBuffer(firstBytes));
        } catch (RuntimeException notTls) {
            // NotSslRecordException, or a handshake record that is not a well-formed ClientHello
            return new NotTls();
        } finally {
            channel.finishAndReleaseAll();
        }
        if (complete[0]) {
            return new Hello(name[0]);
        }
        return firstBytes.length >= MAX_CLIENT_HELLO_BYTES ? new NotTls() : new NeedMore();
    }
}
