package io.trimus.egress.connection;

import java.util.List;
import java.util.UUID;

/**
 * What a run talked to: the totals of all its recorded connections, per (host, port) and overall, and its latest
 * connections, newest first; and which masked secrets it used with which hosts.
 */
public record RunEgress(UUID runId, ConnectionTotals totals, List<HostTotals> hosts, List<EgressConnection> latest,
                        List<MaskedUse> maskedSecrets) {
}
