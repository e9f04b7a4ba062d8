package io.trimus.egress.dns;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.tunnelling.TunnellingWatch;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.jboss.logging.Logger;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

import java.util.concurrent.ConcurrentHashMap;

/**
 * What happens to one DNS packet, whichever transport brought it: parse (malformed → dropped and counted), charge the
 * source's query budget (over it → REFUSED and counted, before any other work), decide
 * ({@link QueryPolicy}), report a denial ({@link AnomalyRecorder}), then answer locally: a denial with its rcode, an
 * allowed name steered to the egress proxy; or, when there is no proxy to steer to, from the cache or the upstream.
 * Never throws and never blocks; identical questions in flight share one upstream query.
 */
public final class DnsQueryHandler {
    private static final Logger LOG = Logger.getLogger(DnsQueryHandler.class);

    /** The transport a packet came by: it bounds the answer's size. */
    public enum Transport {
        UDP, TCP
    }

    private final QueryPolicy policy;
    private final AnomalyRecorder anomalies;
    private final AnswerCache cache;
    private final Upstream upstream;
    private final DnsMetrics metrics;
    private final SourceQueryBudget budget;
    private final Steering steering;
    private final ConcurrentHashMap<AnswerCache.Key, Future<Message>> inFlight = new ConcurrentHashMap<>();
    private final TunnellingWatch tunnelling;

    /**
     * Where allowed names are steered: the egress proxy's IPv4 address, and the TTL of the steered answers.
     *
     * @param proxy the address the transparent proxy listens on, which sandboxes reach
     * @param ttl   seconds a client may keep the steered answer
     */
    public record Steering(java.net.Inet4Address proxy, long ttl) {
    }

    /** A handler that scores no names for tunnelling (tests of everything else). */
    public DnsQueryHandler(QueryPolicy policy, AnomalyRecorder anomalies, AnswerCache cache, Upstream upstream,
                           DnsMetrics metrics, SourceQueryBudget budget, Steering steering) {
        this(policy, anomalies, cache, upstream, metrics, budget, steering, null);
    }

    /**
     * @param steering   where allowed names are steered, or null to forward them to the upstream
     * @param tunnelling scores every name a sandbox asks for and says which base domains are refused to it; null
     *                   scores none
     */
    public DnsQueryHandler(QueryPolicy policy, AnomalyRecorder anomalies, AnswerCache cache, Upstream upstream,
                           DnsMetrics metrics, SourceQueryBudget budget, Steering steering,
                           TunnellingWatch tunnelling) {
        this.tunnelling = tunnelling;
        this.steering = steering;
        this.budget = budget;
        this.policy = policy;
        this.anomalies = anomalies;
        this.cache = cache;
        this.upstream = upstream;
        this.metrics = metrics;
    }

    /**
     * A hot path for UDP queries deciding as this handler does (one per event loop: it is not thread-safe); what it
     * leaves goes to {@link #handle}.
     */
    public InPlaceAnswers inPlace() {
        return new InPlaceAnswers(policy, anomalies, metrics, budget, steering, tunnelling);
    }

    /**
     * The wire answer to one packet from {@code sourceIp}, or a null result when the packet is dropped. The future
     * never fails.
     */
    public Future<byte[]> handle(String sourceIp, byte[] packet, Transport transport) {
        long start = System.nanoTime();
        Message query = DnsCodec.parseQuery(packet);
        if (query == null) {
            metrics.droppedMalformed();
            return Future.succeededFuture();
        }
        int maxLength = transport == Transport.UDP ? DnsCodec.udpLimit(query) : DnsCodec.MAX_MESSAGE;
        try {
            if (!budget.tryAcquire(sourceIp)) {
                metrics.counted(Verdict.RATE_LIMITED);
                return Future.succeededFuture(finish(DnsCodec.response(query, Verdict.RATE_LIMITED.rcode()),
                        maxLength, start));
            }
            Decision decision = policy.decide(sourceIp, query);
            Verdict watched = watched(tunnelling, decision.sandbox(), decision.qname(), decision.type(),
                    decision.qtype(), decision.verdict());
            if (watched != decision.verdict()) {
                decision = new Decision(watched, decision.sandbox(), decision.qname(), decision.qtype(),
                        decision.type());
            }
            metrics.counted(decision.verdict());
            report(sourceIp, decision);
            boolean answered = decision.verdict().answered();
            if (answered && steering != null) {
                Message steered = DnsCodec.steered(query, steering.proxy(), steering.ttl());
                return Future.succeededFuture(finish(steered, maxLength, start));
            }
            if (!answered) {
                Message local = DnsCodec.response(query, decision.verdict().rcode());
                return Future.succeededFuture(finish(local, maxLength, start));
            }
            return forward(query, decision)
                    .map(answer -> finish(answer, maxLength, start))
                    .otherwise(failure -> failed(query, failure, maxLength, start));
        } catch (RuntimeException unexpected) {
            return Future.succeededFuture(failed(query, unexpected, maxLength, start));
        }
    }

    /**
     * The verdict once {@code name} is scored for tunnelling: {@link Verdict#TUNNELLING} for a name that would be
     * answered, when its base domain is refused to the sandbox; else {@code verdict}. Scores only the names the
     * sandbox's policy decided ({@link Verdict#scored}).
     */
    static Verdict watched(TunnellingWatch tunnelling, io.trimus.egress.sandbox.Sandbox sandbox, CharSequence name,
                           int type, String typeName, Verdict verdict) {
        if (tunnelling == null || sandbox == null || !verdict.scored()) {
            return verdict;
        }
        boolean refused = tunnelling.observe(sandbox, name, typeName, !verdict.answered(),
                type != org.xbill.DNS.Type.A && type != org.xbill.DNS.Type.AAAA);
        return refused && verdict.answered() ? Verdict.TUNNELLING : verdict;
    }

    /** Counts a TCP connection closed at accept: {@code perSource} when its source had its share open, else all were. */
    public void refusedConnection(boolean perSource) {
        metrics.refusedConnection(perSource);
    }

    /** Counts a UDP answer the socket could not take. */
    void droppedAnswer() {
        metrics.droppedAnswer();
    }

    /** Counts a packet the transport dropped before it could be parsed (an empty TCP frame). */
    public void droppedMalformed() {
        metrics.droppedMalformed();
    }

    private void report(String sourceIp, Decision decision) {
        String reason = decision.verdict().anomalyReason();
        if (reason == null) {
            return;
        }
        try {
            anomalies.record(decision.sandbox(), sourceIp, decision.qname(), decision.qtype(), reason,
                    decision.verdict().enforced());
        } catch (RuntimeException e) {
            // The answer matters more than the report; the recorder logs its own failures.
            LOG.debugf(e, "could not record a %s anomaly", reason);
        }
    }

    private Future<Message> forward(Message query, Decision decision) {
        AnswerCache.Key key = new AnswerCache.Key(decision.qname(), decision.type(), DClass.IN);
        Message cached = cache.get(key);
        if (cached != null) {
            return Future.succeededFuture(DnsCodec.answer(query, cached));
        }
        return shared(key).map(answer -> DnsCodec.answer(query, answer));
    }

    /** One upstream query per distinct question in flight; whoever asks while it runs waits for the same answer. */
    private Future<Message> shared(AnswerCache.Key key) {
        Promise<Message> promise = Promise.promise();
        Future<Message> running = inFlight.putIfAbsent(key, promise.future());
        if (running != null) {
            return running;
        }
        Future<Message> answer;
        try {
            // The policy forwards only names it normalised, which always parse; the upstream sees exactly that name.
            answer = upstream.resolve(Name.fromString(key.qname(), Name.root), key.qtype());
        } catch (TextParseException | RuntimeException e) {
            answer = Future.failedFuture(e);
        }
        answer.onComplete(result -> {
            inFlight.remove(key, promise.future());
            if (result.succeeded()) {
                cache.put(key, result.result());
                promise.complete(result.result());
            } else {
                promise.fail(result.cause());
            }
        });
        return promise.future();
    }

    private byte[] finish(Message response, int maxLength, long start) {
        byte[] wire = DnsCodec.toWire(response, maxLength);
        metrics.answered(start);
        return wire;
    }

    private byte[] failed(Message query, Throwable failure, int maxLength, long start) {
        if (failure instanceof UpstreamException) {
            metrics.upstreamFailed();
            LOG.debugf("SERVFAIL for %s: %s", query.getQuestion(), failure.getMessage());
        } else {
            metrics.failed();
            LOG.errorf(failure, "unexpected error while answering %s; answered SERVFAIL", query.getQuestion());
        }
        try {
            return finish(DnsCodec.servfail(query), maxLength, start);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
