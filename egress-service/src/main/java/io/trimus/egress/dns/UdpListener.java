package io.trimus.egress.dns;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.InternetProtocolFamily;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.spi.transport.Transport;
import org.jboss.logging.Logger;

import java.net.InetSocketAddress;

/**
 * One UDP socket of the resolver, on one event loop, in Netty directly (Vert.x's datagram socket copies every packet
 * twice and allocates a future per answer). With epoll it reads up to {@value #BATCH} datagrams per system call
 * (recvmmsg, each into a {@value #MAX_QUERY}-byte slice of one pooled direct buffer), answers what it can in place
 * ({@link InPlaceAnswers}) into pooled buffers, and writes the answers of one read batch with a single flush; the
 * rest goes to {@link DnsQueryHandler#handle} and is sent when it is ready.
 *
 * <p>A datagram longer than {@value #MAX_QUERY} bytes is cut there and read as cut (a malformed rest is dropped as
 * such): no stub resolver sends one, and a client with more to ask uses TCP. When the socket's send queue is full, answers are dropped and counted —
 * UDP clients ask again — rather than queued without bound.
 */
final class UdpListener extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(UdpListener.class);
    /** Datagrams read by one recvmmsg call at most. */
    static final int BATCH = 32;
    /** Bytes read of one datagram. */
    static final int MAX_QUERY = 4096;
    /** An in-place answer is at most 12 + 259 + 16 + 11 bytes. */
    private static final int ANSWER_CAPACITY = 512;

    private final DnsQueryHandler handler;
    private final InPlaceAnswers answers;
    private volatile DatagramChannel channel;

    private UdpListener(DnsQueryHandler handler) {
        this.handler = handler;
        this.answers = handler.inPlace();
    }

    /**
     * A listener bound to {@code address} (port 0: any free port) on the event loop of {@code loop}, whose callbacks
     * run on that context; {@code reusePort} lets several listeners share the address (epoll only).
     */
    static Future<UdpListener> bind(Transport transport, ContextInternal loop, InetSocketAddress address,
                                    boolean reusePort, DnsQueryHandler handler) {
        UdpListener listener = new UdpListener(handler);
        DatagramChannel channel = transport.datagramChannel(address.getAddress() instanceof java.net.Inet6Address
                ? InternetProtocolFamily.IPv6 : InternetProtocolFamily.IPv4);
        if (channel instanceof EpollDatagramChannel) {
            channel.config().setOption(EpollChannelOption.SO_REUSEPORT, reusePort);
            channel.config().setOption(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_QUERY);
            channel.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(MAX_QUERY * BATCH));
        } else {
            channel.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(MAX_QUERY));
        }
        channel.pipeline().addLast(listener);
        Promise<UdpListener> bound = loop.promise();
        loop.nettyEventLoop().register(channel).addListener(registered -> {
            if (!registered.isSuccess()) {
                bound.fail(registered.cause());
                return;
            }
            channel.bind(address).addListener(done -> {
                if (done.isSuccess()) {
                    listener.channel = channel;
                    bound.complete(listener);
                } else {
                    channel.close();
                    bound.fail(done.cause());
                }
            });
        });
        return bound.future();
    }

    /** The port the socket is bound to. */
    int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** The name of the thread the socket is served on (tests). */
    String threadName() throws Exception {
        return channel.eventLoop().submit(() -> Thread.currentThread().getName()).get();
    }

    /** Closes the socket. */
    Future<Void> close() {
        Promise<Void> closed = Promise.promise();
        channel.close().addListener(done -> closed.complete());
        return closed.future();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        DatagramPacket packet = (DatagramPacket) message;
        try {
            onQuery(ctx, packet.content(), packet.sender());
        } finally {
            packet.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // e.g. a client that went away before its answer (ICMP port unreachable): nothing to do for the socket
        LOG.debugf("DNS UDP socket: %s", cause.getMessage());
    }

    private void onQuery(ChannelHandlerContext ctx, ByteBuf query, InetSocketAddress sender) {
        ByteBuf answer = ctx.alloc().ioBuffer(ANSWER_CAPACITY);
        boolean answered = false;
        try {
            answered = answers.answer(query, sender.getAddress(), answer);
            if (answered) {
                send(ctx, answer, sender, false);
            }
        } finally {
            if (!answered) {
                answer.release();
            }
        }
        if (!answered) {
            byte[] packet = ByteBufUtil.getBytes(query);
            handler.handle(sender.getAddress().getHostAddress(), packet, DnsQueryHandler.Transport.UDP)
                    .onSuccess(wire -> {
                        if (wire != null && wire.length > 0) {
                            send(ctx, Unpooled.wrappedBuffer(wire), sender, true);
                        }
                    });
        }
    }

    /** Queues (or, for an answer that comes later, sends) one answer; drops it while the socket cannot keep up. */
    private void send(ChannelHandlerContext ctx, ByteBuf answer, InetSocketAddress recipient, boolean flush) {
        if (!ctx.channel().isWritable()) {
            answer.release();
            handler.droppedAnswer();
            return;
        }
        DatagramPacket packet = new DatagramPacket(answer, recipient);
        if (flush) {
            ctx.writeAndFlush(packet, ctx.voidPromise());
        } else {
            ctx.write(packet, ctx.voidPromise());
        }
    }
}
