package io.trimus.admin.rest.run;

import io.trimus.admin.client.EgressServiceApi.EgressSummary;
import io.trimus.admin.client.EgressServiceApi.HostTraffic;
import io.trimus.admin.client.EgressServiceApi.MaskedUse;
import io.trimus.admin.client.EgressServiceApi.RunEgress;
import io.trimus.admin.view.Views.HostLine;
import io.trimus.admin.view.Views.Network;

import java.util.Comparator;
import java.util.List;

/** A run's egress record in words: one line per host and port, busiest first, and the totals. */
final class NetworkView {
    /** egress-service lists at most this many hosts, the busiest; its totals count them all. */
    static final int MAX_HOSTS = 200;

    private NetworkView() {
    }

    static Network of(RunEgress record) {
        EgressSummary summary = record == null ? null : record.summary();
        List<HostTraffic> hosts = summary == null || summary.hosts() == null ? List.of() : summary.hosts();
        List<HostLine> lines = hosts.stream()
                .sorted(Comparator.comparingLong(HostTraffic::connections).reversed()
                        .thenComparing(HostTraffic::host, Comparator.nullsLast(Comparator.naturalOrder())))
                .map(NetworkView::line).toList();
        String totals = summary == null || summary.connections() == 0 ? null
                : plural(summary.connections(), "connection") + " in total (" + summary.allowed() + " allowed, "
                + summary.refused() + " refused) · " + ByteSizes.human(summary.bytesOut()) + " out / "
                + ByteSizes.human(summary.bytesIn()) + " in"
                + (hosts.size() >= MAX_HOSTS ? " · the " + MAX_HOSTS + " busiest hosts are listed" : "");
        List<MaskedUse> masked = record == null || record.maskedSecrets() == null ? List.of() : record.maskedSecrets();
        return new Network(lines, totals, null, masked.stream().map(NetworkView::maskedLine).toList());
    }

    /** E.g. "GITHUB_TOKEN → api.github.com · 3 requests swapped". */
    static String maskedLine(MaskedUse use) {
        return use.secret() + " → " + use.host() + " · " + plural(use.requests(), "request") + " swapped";
    }

    static Network failed(String sentence) {
        return new Network(List.of(), null, "The network record could not be read: " + sentence);
    }

    static HostLine line(HostTraffic h) {
        String target = h.host() + ":" + h.port();
        String text = target + " · " + plural(h.connections(), "connection") + " · " + ByteSizes.human(h.bytesOut())
                + " out / " + ByteSizes.human(h.bytesIn()) + " in" + (h.refused() > 0 ? " · " + h.refused()
                + " refused" : "");
        return new HostLine(target, text, h.refused());
    }

    private static String plural(long n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }
}
