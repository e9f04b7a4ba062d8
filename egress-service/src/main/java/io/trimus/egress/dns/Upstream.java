package io.trimus.egress.dns;

import io.vertx.core.Future;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;

/**
 * Where allowed questions are resolved. Only a name and a type cross this boundary, so nothing else a client put
 * in its query can reach the upstream.
 */
public interface Upstream {

    /** The upstream's answer to one IN-class question; fails when it does not answer in time. */
    Future<Message> resolve(Name name, int type);
}
