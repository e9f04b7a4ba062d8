package io.trimus.egress.tunnelling;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Synthetic DNS tunnels: random payload bytes encoded into the labels of names under a base domain, the way
 * dns2tcp, iodine and hand-rolled exfiltration scripts do (hex, base32, base36; labels of up to 63 characters, names
 * of up to 253), each name carrying the next chunk and a sequence number.
 */
final class Encoders {
    /** How a payload becomes labels. */
    enum Encoding {
        HEX, BASE32, BASE36
    }

    /**
     * One tunnel session's names.
     *
     * @param perName  payload bytes per name
     * @param maxLabel characters per label
     */
    record Session(Encoding encoding, int perName, int maxLabel, String base) {
        /** The first {@code count} names, and the payload bytes each carries ({@link #perName}). */
        List<String> names(int count, long seed) {
            Random random = new Random(seed);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                byte[] chunk = new byte[perName];
                random.nextBytes(chunk);
                String encoded = Integer.toString(i, 36) + encode(chunk);
                StringBuilder name = new StringBuilder();
                for (int at = 0; at < encoded.length(); at += maxLabel) {
                    name.append(encoded, at, Math.min(encoded.length(), at + maxLabel)).append('.');
                }
                names.add(name.append(base).toString());
            }
            return names;
        }

        private String encode(byte[] chunk) {
            return switch (encoding) {
                case HEX -> java.util.HexFormat.of().formatHex(chunk);
                case BASE32 -> base32(chunk);
                case BASE36 -> new java.math.BigInteger(1, chunk).toString(36);
            };
        }

        @Override
        public String toString() {
            return encoding.name().toLowerCase(Locale.ROOT) + " " + perName + " B/name, labels of " + maxLabel;
        }
    }

    private Encoders() {
    }

    static String base32(byte[] data) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        StringBuilder out = new StringBuilder();
        int buffer = 0;
        int bits = 0;
        for (byte b : data) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(alphabet.charAt((buffer >> (bits - 5)) & 31));
                bits -= 5;
            }
        }
        if (bits > 0) {
            out.append(alphabet.charAt((buffer << (5 - bits)) & 31));
        }
        return out.toString();
    }
}
