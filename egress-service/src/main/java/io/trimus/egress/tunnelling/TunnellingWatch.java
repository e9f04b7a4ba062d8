package io.trimus.egress.tunnelling;

import io.trimus.egress.config.TunnellingAction;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.anomaly.AnomalyScores;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.events.EgressAnomaly;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Scores every name a sandbox uses, per base domain ({@link BaseDomains}, {@link DomainScore}), and says when a base
 * domain is refused to it. The resolver and the proxy call {@link #observe} for each lookup and connection; the
 * anomaly recorder asks {@link #of} for the score an event carries. When a score first reaches the threshold a
 * {@code suspected_tunnelling} anomaly is raised (qname {@code *.<base domain>}); with {@link TunnellingAction#BLOCK}
 * the base domain is refused to that sandbox from that name on, for the rest of its run.
 *
 * <p>Memory is bounded per sandbox: {@value #MAX_BASES} base domains with a score of their own, the rest scored
 * together under {@code *}; a sandbox's scores go with its registration ({@link #forgetGone}). A name costs no
 * allocation once its base domain is known; nothing here calls out while holding a sandbox's lock.
 */
public final class TunnellingWatch implements AnomalyScores {
    /** Base domains per sandbox with a score of their own; further ones share the sandbox's {@code *} score. */
    static final int MAX_BASES = 64;
    /** The base domain of the names beyond {@link #MAX_BASES}. */
    static final String OTHER_BASES = "*";

    private final double threshold;
    private final TunnellingAction action;
    private final AnomalyRecorder anomalies;
    private final LongSupplier nanoTime;
    private final BaseDomains bases = new BaseDomains();
    private final ConcurrentHashMap<Sandbox, SandboxScores> sandboxes = new ConcurrentHashMap<>();
    private final ThreadLocal<NameShape> shapes = ThreadLocal.withInitial(NameShape::new);

    /**
     * @param threshold the score (0 to 1) at which a base domain is suspected; above 1 never
     * @param anomalies where {@code suspected_tunnelling} is raised
     */
    public TunnellingWatch(double threshold, TunnellingAction action, AnomalyRecorder anomalies,
                           LongSupplier nanoTime) {
        this.threshold = threshold;
        this.action = action;
        this.anomalies = anomalies;
        this.nanoTime = nanoTime;
    }

    /**
     * Scores one use of {@code name} (normalised: lower case, dotted, no trailing dot) by {@code sandbox}: a lookup
     * (its type's mnemonic in {@code use}: {@code A}, {@code TXT}…) or a proxy connection ({@code CONNECT},
     * {@code TLS}, {@code HTTP}). Returns true when the name's base domain is refused to the sandbox (block mode,
     * score at the threshold, this name included): the caller refuses it and records the refusal.
     *
     * @param denied  the name was denied (or did not exist)
     * @param oddType a lookup of a type other than A and AAAA
     */
    public boolean observe(Sandbox sandbox, CharSequence name, String use, boolean denied, boolean oddType) {
        if (sandbox == null || name.length() == 0) {
            return false;
        }
        SandboxScores scores = sandboxes.computeIfAbsent(sandbox, s -> new SandboxScores());
        int baseStart = bases.start(name);
        long baseHash = Hashes.of(name, baseStart, name.length());
        long nameHash = Hashes.of(name, 0, name.length());
        NameShape shape = shapes.get().measure(name, baseStart);
        DomainScore crossed = null;
        boolean refused;
        synchronized (scores) {
            DomainScore score = scores.find(baseHash, name, baseStart);
            score.add(nameHash, shape, denied, oddType, nanoTime.getAsLong());
            if (!score.crossed && score.score() >= threshold) {
                score.crossed = true;
                crossed = score;
            }
            refused = action == TunnellingAction.BLOCK && score.crossed;
        }
        if (crossed != null) {
            suspected(sandbox, crossed, use);
        }
        return refused;
    }

    /** Whether {@code name}'s base domain is refused to {@code sandbox} now, without counting a use. */
    public boolean refused(Sandbox sandbox, CharSequence name) {
        if (action != TunnellingAction.BLOCK || sandbox == null) {
            return false;
        }
        SandboxScores scores = sandboxes.get(sandbox);
        if (scores == null) {
            return false;
        }
        int baseStart = bases.start(name);
        long baseHash = Hashes.of(name, baseStart, name.length());
        synchronized (scores) {
            DomainScore score = scores.existingOrOther(baseHash);
            return score != null && score.crossed;
        }
    }

    /**
     * The sandbox's score for the base domain of {@code qname} (an anomaly's name: {@code *.} in front and a
     * {@code :port} behind are taken off), {@link Scored#NONE} when it used no name there.
     */
    @Override
    public Scored of(Sandbox sandbox, String qname) {
        if (sandbox == null || qname == null) {
            return null;
        }
        SandboxScores scores = sandboxes.get(sandbox);
        if (scores == null) {
            return Scored.NONE;
        }
        String name = nameOf(qname);
        int baseStart = bases.start(name);
        long baseHash = Hashes.of(name, baseStart, name.length());
        double score;
        int signals;
        synchronized (scores) {
            DomainScore domain = OTHER_BASES.equals(name) ? scores.other : scores.existingOrOther(baseHash);
            if (domain == null) {
                return Scored.NONE;
            }
            score = domain.score();
            signals = domain.signals();
        }
        return new Scored(Math.round(score * 1000) / 1000.0, Signal.labels(signals));
    }

    /**
     * What a run should say about its names: one note per base domain of the sandbox at {@code ip} of {@code runId}
     * that crossed the threshold, with its score and signals and what was done. Empty when none did (or the scores
     * are gone).
     */
    public List<String> notes(String ip, UUID runId) {
        List<String> notes = new ArrayList<>();
        sandboxes.forEach((sandbox, scores) -> {
            if (!sandbox.ip().equals(ip) || !sandbox.runId().equals(runId)) {
                return;
            }
            synchronized (scores) {
                for (int i = 0; i < scores.count; i++) {
                    note(scores.domains[i], notes);
                }
                if (scores.other != null) {
                    note(scores.other, notes);
                }
            }
        });
        return notes;
    }

    private void note(DomainScore domain, List<String> notes) {
        if (!domain.crossed) {
            return;
        }
        String base = OTHER_BASES.equals(domain.base) ? "further base domains" : "*." + domain.base;
        notes.add(String.format(java.util.Locale.ROOT, "suspected tunnelling: names under %s scored %.2f (%s); %s",
                base, domain.score(), String.join(", ", Signal.labels(domain.signals())),
                action == TunnellingAction.BLOCK ? "refused for the rest of the run (TRIMUS_EGRESS_TUNNELLING_ACTION=block)"
                        : "let through and reported (TRIMUS_EGRESS_TUNNELLING_ACTION=alert)"));
    }

    /** Drops the scores of sandboxes no longer registered (their run ended); what a new run asks starts at 0. */
    public void forgetGone(SandboxRegistry registry) {
        sandboxes.keySet().removeIf(sandbox -> !sandbox.equals(registry.lookup(sandbox.ip()).orElse(null)));
    }

    /** Sandboxes with scores (tests, metrics). */
    int sandboxesScored() {
        return sandboxes.size();
    }

    private void suspected(Sandbox sandbox, DomainScore crossed, String use) {
        try {
            anomalies.record(sandbox, sandbox.ip(), OTHER_BASES.equals(crossed.base) ? OTHER_BASES : "*." + crossed.base,
                    use, EgressAnomaly.SUSPECTED_TUNNELLING, action == TunnellingAction.BLOCK);
        } catch (RuntimeException e) {
            // the recorder logs its own failures; the verdict stands either way
        }
    }

    private static String nameOf(String qname) {
        String name = qname.startsWith("*.") ? qname.substring(2) : qname;
        int colon = name.lastIndexOf(':');
        return colon > 0 && name.indexOf(':') == colon ? name.substring(0, colon) : name;
    }

    /** One sandbox's scores: up to {@link #MAX_BASES} base domains, then one for all others. Guarded by itself. */
    private static final class SandboxScores {
        private final DomainScore[] domains = new DomainScore[MAX_BASES];
        private int count;
        private DomainScore other;

        DomainScore existing(long baseHash) {
            for (int i = 0; i < count; i++) {
                if (domains[i].baseHash == baseHash) {
                    return domains[i];
                }
            }
            return null;
        }

        /** The base domain's score, or the one of all others when it has none of its own and there is no room. */
        DomainScore existingOrOther(long baseHash) {
            DomainScore found = existing(baseHash);
            return found == null && count == MAX_BASES ? other : found;
        }

        DomainScore find(long baseHash, CharSequence name, int baseStart) {
            DomainScore found = existing(baseHash);
            if (found != null) {
                return found;
            }
            if (count < MAX_BASES) {
                found = new DomainScore(baseHash, name.subSequence(baseStart, name.length()).toString());
                domains[count++] = found;
                return found;
            }
            if (other == null) {
                other = new DomainScore(0, OTHER_BASES);
            }
            return other;
        }
    }
}
