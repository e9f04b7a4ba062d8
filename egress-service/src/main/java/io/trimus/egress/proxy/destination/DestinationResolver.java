package io.trimus.egress.proxy.destination;

import io.trimus.egress.dns.AnswerCache;
import io.trimus.egress.dns.Upstream;
import io.vertx.core.Future;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Resolves an admitted host at the configured upstream (A and AAAA together; answers kept for their TTL, at most the
 * cache's bound, so a busy host costs one lookup a TTL, not two a connection) and sorts its addresses by
 * {@link DestinationAddressPolicy} on every use: the proxy dials only an address that passed, never the name again, so
 * the address checked is the address connected to.
 */
public final class DestinationResolver {
    private final Upstream upstream;
    private final DestinationAddressPolicy addresses;
    private final AnswerCache cache;

    /** @param cache where answers are kept for their TTL, or null to ask every time */
    public DestinationResolver(Upstream upstream, DestinationAddressPolicy addresses, AnswerCache cache) {
        this.upstream = upstream;
        this.addresses = addresses;
        this.cache = cache;
    }

    /**
     * What the host resolved to.
     *
     * @param resolved  every address of the answers (IPv4 first)
     * @param permitted those the proxy may dial, in the same order
     * @param refusal   the address class of the first refused address, or null
     */
    public record Destinations(List<InetAddress> resolved, List<InetAddress> permitted, String refusal) {
    }

    /** Resolves the normalised {@code host}; a lookup that fails counts as no address of that family. */
    public Future<Destinations> resolve(String host) {
        Name name;
        try {
            name = Name.fromString(host, Name.root);
        } catch (TextParseException e) {
            return Future.succeededFuture(new Destinations(List.of(), List.of(), null));
        }
        Future<List<InetAddress>> v4 = lookup(name, Type.A);
        Future<List<InetAddress>> v6 = lookup(name, Type.AAAA);
        return Future.join(v4, v6).transform(done -> {
            Set<InetAddress> all = new LinkedHashSet<>();
            all.addAll(v4.succeeded() ? v4.result() : List.of());
            all.addAll(v6.succeeded() ? v6.result() : List.of());
            List<InetAddress> permitted = new ArrayList<>();
            String refusal = null;
            for (InetAddress address : all) {
                String why = addresses.refusal(address);
                if (why == null) {
                    permitted.add(address);
                } else if (refusal == null) {
                    refusal = why;
                }
            }
            return Future.succeededFuture(new Destinations(List.copyOf(all), List.copyOf(permitted), refusal));
        });
    }

    private Future<List<InetAddress>> lookup(Name name, int type) {
        if (cache == null) {
            return upstream.resolve(name, type).map(answer -> addressesIn(answer, type));
        }
        AnswerCache.Key key = new AnswerCache.Key(name.toString(true), type, DClass.IN);
        Message cached = cache.get(key);
        if (cached != null) {
            return Future.succeededFuture(addressesIn(cached, type));
        }
        return upstream.resolve(name, type).map(answer -> {
            cache.put(key, answer);
            return addressesIn(answer, type);
        });
    }

    private static List<InetAddress> addressesIn(Message answer, int type) {
        if (answer.getRcode() != Rcode.NOERROR) {
            return List.of();
        }
        List<InetAddress> found = new ArrayList<>();
        for (Record record : answer.getSection(Section.ANSWER)) {
            if (type == Type.A && record instanceof ARecord a) {
                found.add(a.getAddress());
            } else if (type == Type.AAAA && record instanceof AAAARecord aaaa) {
                found.add(aaaa.getAddress());
            }
        }
        return found;
    }
}
