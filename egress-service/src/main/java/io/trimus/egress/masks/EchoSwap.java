package io.trimus.egress.masks;

import io.trimus.events.secrets.SandboxMask;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What a scoped host answers, given back to the sandbox with every real value it could echo swapped for the
 * surrogate the sandbox holds: each masked secret's value, and each encoded credential the proxy sent (Basic
 * {@code user:value} in base64) for the form the sandbox sent. Applied to response headers and, streaming, to the
 * body: a value split over several reads is still found, holding back only a tail that could be the start of one, so
 * a server-sent event goes on at once unless it ends in what may be the first bytes of a value. Pure.
 *
 * <p>A host that echoes a value otherwise encoded (percent- or JSON-escaped, compressed, reversed) is not caught;
 * the proxy keeps that from happening by refusing TRACE and by putting a value only in the headers it belongs in,
 * sent only to its scoped hosts.
 */
public final class EchoSwap {
    private static final byte[] NOTHING = new byte[0];

    private final byte[][] from;
    private final byte[][] to;
    private final boolean sameLength;

    private EchoSwap(List<byte[][]> pairs) {
        pairs.sort(Comparator.comparingInt((byte[][] pair) -> pair[0].length).reversed());
        this.from = pairs.stream().map(pair -> pair[0]).toArray(byte[][]::new);
        this.to = pairs.stream().map(pair -> pair[1]).toArray(byte[][]::new);
        this.sameLength = pairs.stream().allMatch(pair -> pair[0].length == pair[1].length);
    }

    /** The swap for one request's answer: every value of {@code masks}, and the {@code encoded} forms it sent. */
    public static EchoSwap of(RunMasks masks, Map<String, String> encoded) {
        List<byte[][]> pairs = new ArrayList<>();
        for (SandboxMask mask : masks.masks()) {
            add(pairs, mask.value(), mask.surrogate());
        }
        encoded.forEach((sent, sandboxForm) -> add(pairs, sent, sandboxForm));
        return new EchoSwap(pairs);
    }

    private static void add(List<byte[][]> pairs, String real, String surrogate) {
        if (real != null && !real.isEmpty() && !real.equals(surrogate)) {
            pairs.add(new byte[][] {real.getBytes(StandardCharsets.UTF_8), surrogate.getBytes(StandardCharsets.UTF_8)});
        }
    }

    /** Whether a swap can change a body's length (a surrogate of another length), so a Content-Length cannot stay. */
    public boolean changesLength() {
        return !sameLength;
    }

    /** A header value (or any whole text) with every value swapped. */
    public String apply(String text) {
        if (text == null || from.length == 0) {
            return text;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Stream stream = stream();
        byte[] head = stream.feed(bytes);
        byte[] tail = stream.finish();
        if (tail.length == 0 && Arrays.equals(head, bytes)) {
            return text;
        }
        byte[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return new String(all, StandardCharsets.UTF_8);
    }

    /** A body, read by read. */
    public Stream stream() {
        return new Stream();
    }

    /** One body's swap: {@link #feed} each read in order, then {@link #finish}. */
    public final class Stream {
        private byte[] held = NOTHING;

        private Stream() {
        }

        /** The bytes that can go on now; a tail that may begin a value is held until the next read. */
        public byte[] feed(byte[] data) {
            return swap(concat(held, data), false);
        }

        /** What was held back, at the end of the body. */
        public byte[] finish() {
            byte[] rest = swap(held, true);
            held = NOTHING;
            return rest;
        }

        private byte[] swap(byte[] in, boolean last) {
            held = NOTHING;
            if (from.length == 0) {
                return in;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
            int run = 0;
            int i = 0;
            scan:
            while (i < in.length) {
                for (int k = 0; k < from.length; k++) {
                    byte[] pattern = from[k];
                    if (in[i] != pattern[0]) {
                        continue;
                    }
                    int available = in.length - i;
                    if (available >= pattern.length) {
                        if (Arrays.equals(in, i, i + pattern.length, pattern, 0, pattern.length)) {
                            out.write(in, run, i - run);
                            out.write(to[k], 0, to[k].length);
                            i += pattern.length;
                            run = i;
                            continue scan;
                        }
                    } else if (!last && Arrays.equals(in, i, in.length, pattern, 0, available)) {
                        out.write(in, run, i - run);
                        held = Arrays.copyOfRange(in, i, in.length);
                        return out.toByteArray();
                    }
                }
                i++;
            }
            out.write(in, run, in.length - run);
            return out.toByteArray();
        }
    }

    private static byte[] concat(byte[] first, byte[] second) {
        if (first.length == 0) {
            return second;
        }
        byte[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
