package io.trimus.egress.ca;

import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The leaf certificates one CA has issued, one per host name, in a least-recently-used cache of
 * {@link LeafPolicy#cacheSize()} entries; a leaf about to expire is issued anew. All leaves of a CA share one key pair:
 * what a leaf protects is the host name it binds, and the key never leaves this process.
 */
final class LeafCertificates {
    private final X509Certificate ca;
    private final PrivateKey caKey;
    private final LeafPolicy policy;
    private final Clock clock;
    private final KeyPair keys = CaCertificates.newKeyPair();
    private final Map<String, X509Certificate> cache;

    LeafCertificates(X509Certificate ca, PrivateKey caKey, LeafPolicy policy, Clock clock) {
        this.ca = ca;
        this.caKey = caKey;
        this.policy = policy;
        this.clock = clock;
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, X509Certificate> eldest) {
                return size() > policy.cacheSize();
            }
        };
    }

    /** The leaf for {@code host}, a valid lower-case host name ({@link LeafHostNames#of}). */
    X509Certificate leaf(String host) {
        Instant now = clock.instant();
        X509Certificate cached = cached(host, now);
        if (cached != null) {
            return cached;
        }
        // issued outside the lock: signing takes a moment, and other hosts' handshakes need not wait for it
        Instant notAfter = now.plus(policy.validity());
        Instant caEnd = ca.getNotAfter().toInstant();
        X509Certificate issued = CaCertificates.leaf(host, keys, ca, caKey, now.minus(CaCertificates.BACKDATE),
                notAfter.isAfter(caEnd) ? caEnd : notAfter);
        synchronized (cache) {
            X509Certificate raced = fresh(cache.get(host), now);
            if (raced != null) {
                return raced;
            }
            cache.put(host, issued);
            return issued;
        }
    }

    /** The private key of every leaf of this CA. */
    PrivateKey privateKey() {
        return keys.getPrivate();
    }

    /** How many leaves are cached. */
    int size() {
        synchronized (cache) {
            return cache.size();
        }
    }

    private X509Certificate cached(String host, Instant now) {
        synchronized (cache) {
            return fresh(cache.get(host), now);
        }
    }

    private X509Certificate fresh(X509Certificate leaf, Instant now) {
        if (leaf == null || leaf.getNotAfter().toInstant().isBefore(now.plus(policy.renewalMargin()))) {
            return null;
        }
        return leaf;
    }
}
