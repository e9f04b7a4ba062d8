package io.trimus.egress.proxy.relay;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.epoll.EpollChannelConfig;
import io.netty.channel.epoll.EpollMode;
import io.netty.channel.epoll.Native;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Queue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * One direction of an open tunnel carried by the kernel: Netty's {@link AbstractEpollStreamChannel#spliceTo} moves the
 * source socket's bytes through a pipe into the sink socket with {@code splice(2)}, never into the JVM. Netty does the
 * reading, the writing and the backpressure (the source stops reading while the pipe waits for the sink); this class
 * keeps what {@link Splice} guarantees besides:
 *
 * <ul>
 *   <li><b>counted bytes</b>: Netty reports a splice only when its whole length has moved, so the length still to
 *   move is read from its task (the {@code len} field of Netty's {@code SpliceInTask}, the one thing read by
 *   reflection, with the queue it sits in; without them nothing is spliced, {@link #AVAILABLE}); {@link #sync} hands what moved since the last
 *   call to the counter, at every completed splice, at the end and at every look of the tunnel's idle watch;</li>
 *   <li><b>the end of the source's stream</b>: Netty closes a socket whose peer sent its FIN right after one splice
 *   pass, even when that pass left bytes in the socket (the pipe was full), so the source is switched to half-closure
 *   ({@code ALLOW_HALF_CLOSURE}): at the FIN ({@link ChannelInputShutdownEvent}) the splice task is taken out of the
 *   queue, the channel reads the rest as buffers ({@link Splice}'s relay, counted there), and when it reads the end
 *   ({@link ChannelInputShutdownReadComplete}) the source is closed as Netty would have closed it without
 *   half-closure, so the caller's close handlers run as before.</li>
 * </ul>
 *
 * Everything runs on the one event loop both channels share (Netty's requirement, with level-triggered epoll).
 */
final class KernelSplice {
    /** Bytes per splice task: the count is read from the task, so this only bounds how often a task is queued. */
    static final int TASK_BYTES = 1 << 30;
    /** Whether Netty's splice task can be read here (its fields exist): else tunnels are relayed as buffers. */
    static final boolean AVAILABLE;
    private static final Field QUEUE;
    private static final Field LENGTH;
    private static final Method CLEAR_FLAG;
    /** Bytes every tunnel of this process moved by splice(2) (for tests and a look at a running service). */
    private static final LongAdder SPLICED = new LongAdder();

    static {
        Field queue = null;
        Field length = null;
        Method clearFlag = null;
        try {
            clearFlag = AbstractEpollStreamChannel.class.getSuperclass().getDeclaredMethod("clearFlag", int.class);
            clearFlag.setAccessible(true);
            queue = AbstractEpollStreamChannel.class.getDeclaredField("spliceQueue");
            queue.setAccessible(true);
            length = Class.forName(AbstractEpollStreamChannel.class.getName() + "$SpliceInTask")
                    .getDeclaredField("len");
            length.setAccessible(true);
        } catch (Throwable unavailable) {
            queue = null;
            length = null;
            clearFlag = null;
        }
        QUEUE = queue;
        LENGTH = length;
        CLEAR_FLAG = clearFlag;
        AVAILABLE = queue != null && length != null && clearFlag != null;
    }

    /**
     * Switches a registered channel from edge- to level-triggered epoll, as {@code spliceTo} asks: Netty's
     * {@code EpollChannelConfig#setEpollMode} does it only before the channel is registered (Vert.x registers it
     * before the tunnel exists), so its own flag change is called (reflection, as the fields above). Safe this way
     * round: level-triggered readiness reports all that edge-triggered does, and Netty reads the mode at every event.
     */
    static void levelTriggered(Channel channel) {
        if (((EpollChannelConfig) channel.config()).getEpollMode() == EpollMode.LEVEL_TRIGGERED) {
            return;
        }
        try {
            CLEAR_FLAG.invoke(channel, Native.EPOLLET);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot switch " + channel + " to level-triggered epoll", e);
        }
    }

    private final AbstractEpollStreamChannel from;
    private final AbstractEpollStreamChannel to;
    private final LongConsumer counter;
    /** The splice task queued on {@code from} now, null between tasks and after the end. */
    private Object task;
    /** Of {@link #task}'s length, the bytes already handed to the counter. */
    private long taskCounted;
    /** The source's FIN was seen: no task is queued again. */
    private boolean ended;

    KernelSplice(Channel from, Channel to, LongConsumer counter) {
        this.from = (AbstractEpollStreamChannel) from;
        this.to = (AbstractEpollStreamChannel) to;
        this.counter = counter;
        from.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        from.pipeline().addBefore("handler", "trimus-splice-end", new EndOfInput());
    }

    /** Total bytes moved by splice(2) in this process. */
    static long splicedBytes() {
        return SPLICED.sum();
    }

    /** Queues a splice task when none is: the source's bytes go by the kernel from the next read on. */
    void start() {
        if (task != null || ended || !from.isActive() || from.isInputShutdown()) {
            return;
        }
        Queue<?> queue = queue();
        if (queue != null && !queue.isEmpty()) {
            // a task that just completed is still at the queue's head (Netty removes it after its listener ran)
            from.eventLoop().execute(this::start);
            return;
        }
        ChannelFuture done = from.spliceTo(to, TASK_BYTES);
        queue = queue();
        Object queued = queue == null ? null : queue.peek();
        if (queued == null) {
            // failed at once (the channel closed): nothing was queued
            return;
        }
        task = queued;
        taskCounted = 0;
        done.addListener(finished -> completed(queued, finished.isSuccess()));
    }

    /** A splice task ended: its whole length moved (the next is queued), or it failed (buffers carry on). */
    private void completed(Object finished, boolean success) {
        if (task != finished) {
            return; // taken out at the source's FIN, already counted
        }
        sync();
        task = null;
        if (success) {
            start();
        }
    }

    /** Hands the bytes the current task moved since the last call to the counter. */
    void sync() {
        Object current = task;
        if (current == null) {
            return;
        }
        long moved = TASK_BYTES - remaining(current);
        long fresh = moved - taskCounted;
        if (fresh > 0) {
            taskCounted = moved;
            SPLICED.add(fresh);
            counter.accept(fresh);
        }
    }

    private static int remaining(Object task) {
        try {
            return LENGTH.getInt(task);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private Queue<?> queue() {
        try {
            return (Queue<?>) QUEUE.get(from);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The source's FIN: its splice task goes and the rest of its bytes are read as buffers (Netty stopped reading
     * at the FIN; the read asked for here finds the rest, then the end).
     */
    private void endOfInput() {
        takeTaskOut();
        from.read();
    }

    private void takeTaskOut() {
        ended = true;
        Object current = task;
        if (current == null) {
            return;
        }
        Queue<?> queue = queue();
        if (queue != null && queue.peek() == current) {
            queue.poll();
        }
        sync();
        task = null;
    }

    /** The source's end events, kept from Vert.x (which would not close a half-closed socket). */
    private final class EndOfInput extends ChannelInboundHandlerAdapter {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event == ChannelInputShutdownEvent.INSTANCE) {
                // after the splice pass that saw the FIN returned: its task is not in use then
                ctx.channel().eventLoop().execute(KernelSplice.this::endOfInput);
            } else if (event == ChannelInputShutdownReadComplete.INSTANCE) {
                // everything before the FIN was read and relayed
                // closed as Netty closes a socket at its end without half-closure (Vert.x's close handlers follow)
                takeTaskOut();
                from.close();
            } else {
                ctx.fireUserEventTriggered(event);
            }
        }
    }
}
