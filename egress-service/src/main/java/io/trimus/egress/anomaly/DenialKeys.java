package io.trimus.egress.anomaly;

import io.trimus.egress.sandbox.Sandbox;

import java.net.InetAddress;
import java.util.Objects;

/**
 * The keys {@link RateLimitedAnomalyRecorder} tracks denials and budgets by, and the probes that find them without
 * building one (what keeps a folded repeat from allocating).
 */
final class DenialKeys {
    private DenialKeys() {
    }

    /**
     * One tracked (source, name, type, reason); {@code qname} is null for a source's overflow key. Equal sources are
     * the same address however they were spelled; the hash is computed once, with {@link KeyProbe}'s formula.
     */
    static final class Key {
        final String sourceIp;
        final InetAddress source;
        final Sandbox sandbox;
        final String qname;
        final String qtype;
        final String reason;
        final boolean enforced;
        /** The refused request's method and path (reason {@code proxy_request_denied}), else null. */
        final String method;
        final String path;
        private final int hash;

        Key(String sourceIp, InetAddress source, Sandbox sandbox, String qname, String qtype, String reason,
            boolean enforced) {
            this(sourceIp, source, sandbox, qname, qtype, reason, enforced, null, null);
        }

        Key(String sourceIp, InetAddress source, Sandbox sandbox, String qname, String qtype, String reason,
            boolean enforced, String method, String path) {
            this.method = method;
            this.path = path;
            this.sourceIp = sourceIp;
            this.source = source;
            this.sandbox = sandbox;
            this.qname = qname;
            this.qtype = qtype;
            this.reason = reason;
            this.enforced = enforced;
            this.hash = KeyProbe.hash(source == null ? sourceIp.hashCode() : source.hashCode(), sandbox,
                    qname == null ? 0 : qname.hashCode(), qtype, reason, enforced);
        }

        boolean overflow() {
            return qname == null;
        }

        boolean sameSource(InetAddress address, String ip) {
            return source != null && address != null ? source.equals(address) : sourceIp.equals(ip);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.hash == hash && key.sameSource(source, sourceIp)
                    && Objects.equals(key.sandbox, sandbox) && Objects.equals(key.qname, qname)
                    && key.qtype.equals(qtype) && key.reason.equals(reason) && key.enforced == enforced
                    && Objects.equals(key.method, method) && Objects.equals(key.path, path);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * Looks up the {@link Key} of a repeat (a null name: the source's overflow key) without building one: the in-place path's name is a reused character
     * buffer. The map calls the probe's {@code equals} with its stored keys, which is all it must answer. One per
     * thread, cleared after each use so it keeps no name alive.
     */
    static final class KeyProbe {
        private InetAddress source;
        private Sandbox sandbox;
        private CharSequence qname;
        private String qtype;
        private String reason;
        private boolean enforced;
        private int hash;

        static int hash(int sourceHash, Sandbox sandbox, int qnameHash, String qtype, String reason,
                        boolean enforced) {
            int hash = sourceHash;
            hash = 31 * hash + Objects.hashCode(sandbox);
            hash = 31 * hash + qnameHash;
            hash = 31 * hash + qtype.hashCode();
            hash = 31 * hash + reason.hashCode();
            return 31 * hash + (enforced ? 1 : 0);
        }

        KeyProbe set(InetAddress source, Sandbox sandbox, CharSequence qname, String qtype, String reason,
                     boolean enforced) {
            this.source = source;
            this.sandbox = sandbox;
            this.qname = qname;
            this.qtype = qtype;
            this.reason = reason;
            this.enforced = enforced;
            int qnameHash = 0;
            for (int i = 0; qname != null && i < qname.length(); i++) {
                qnameHash = 31 * qnameHash + qname.charAt(i);
            }
            this.hash = hash(source.hashCode(), sandbox, qnameHash, qtype, reason, enforced);
            return this;
        }

        void clear() {
            source = null;
            sandbox = null;
            qname = null;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.hash == hash && key.source != null && key.source.equals(source)
                    && Objects.equals(key.sandbox, sandbox)
                    && (qname == null ? key.qname == null : key.qname != null && key.qname.contentEquals(qname))
                    && key.qtype.equals(qtype) && key.reason.equals(reason) && key.enforced == enforced
                    && key.method == null;
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * Whose budget a denial spends: the sandbox, or the bare source address of an unattributed one; equal sources are
     * the same address however they were spelled.
     */
    static final class Source {
        final String sourceIp;
        final InetAddress source;
        final Sandbox sandbox;
        private final int hash;

        Source(String sourceIp, InetAddress source, Sandbox sandbox) {
            this.sourceIp = sourceIp;
            this.source = source;
            this.sandbox = sandbox;
            this.hash = 31 * (source == null ? sourceIp.hashCode() : source.hashCode()) + Objects.hashCode(sandbox);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Source that && that.hash == hash && Objects.equals(that.sandbox, sandbox)
                    && (source != null && that.source != null ? source.equals(that.source)
                    : sourceIp.equals(that.sourceIp));
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** Looks up a {@link Source} without building one, as {@link KeyProbe} does for keys. */
    static final class SourceProbe {
        private InetAddress source;
        private Sandbox sandbox;
        private int hash;

        SourceProbe set(InetAddress source, Sandbox sandbox) {
            this.source = source;
            this.sandbox = sandbox;
            this.hash = 31 * source.hashCode() + Objects.hashCode(sandbox);
            return this;
        }

        void clear() {
            source = null;
            sandbox = null;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Source that && that.hash == hash && that.source != null
                    && that.source.equals(source) && Objects.equals(that.sandbox, sandbox);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
