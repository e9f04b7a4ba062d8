package io.trimus.egress.dns;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;

/**
 * DNS over TCP framing (RFC 1035 §4.2.2, RFC 7766): every message is preceded by its length in two bytes, and a
 * connection carries any number of them. Used by the server for clients and by the upstream client.
 */
final class DnsTcpFraming {

    private DnsTcpFraming() {
    }

    /**
     * Feeds each complete message read from {@code socket} to {@code onMessage}; a zero length prefix, which frames
     * nothing, goes to {@code onBadFrame} and ends the reading. The returned parser is the stream to pause and
     * resume: pausing it stops both the messages and the reading of the socket.
     */
    static RecordParser read(NetSocket socket, Handler<byte[]> onMessage, Runnable onBadFrame) {
        RecordParser parser = RecordParser.newFixed(2, socket);
        parser.handler(new Handler<>() {
            private boolean expectLength = true;

            @Override
            public void handle(Buffer chunk) {
                if (expectLength) {
                    int length = chunk.getUnsignedShort(0);
                    if (length == 0) {
                        parser.pause();
                        onBadFrame.run();
                        return;
                    }
                    expectLength = false;
                    parser.fixedSizeMode(length);
                } else {
                    expectLength = true;
                    parser.fixedSizeMode(2);
                    onMessage.handle(chunk.getBytes());
                }
            }
        });
        return parser;
    }

    /** {@code message} with its two-byte length prefix. */
    static Buffer frame(byte[] message) {
        return Buffer.buffer(message.length + 2).appendUnsignedShort(message.length).appendBytes(message);
    }
}
