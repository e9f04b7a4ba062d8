package io.trimus.admin.rest.run;

import io.trimus.admin.client.EgressServiceApi.EgressSummary;
import io.trimus.admin.client.EgressServiceApi.HostTraffic;
import io.trimus.admin.client.EgressServiceApi.MaskedUse;
import io.trimus.admin.client.EgressServiceApi.RunEgress;
import io.trimus.admin.view.Views;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A run's network record and byte counts in the words the pages use. */
class NetworkWordsTest {

    @Test
    void byteCountsAreInHumanUnits() {
        assertThat(ByteSizes.human(0)).isEqualTo("0 B");
        assertThat(ByteSizes.human(1023)).isEqualTo("1023 B");
        assertThat(ByteSizes.human(1024)).isEqualTo("1 KB");
        assertThat(ByteSizes.human(1536)).isEqualTo("1.5 KB");
        assertThat(ByteSizes.human(41 * 1024 + 100)).isEqualTo("41 KB");
        assertThat(ByteSizes.human(1_258_291)).isEqualTo("1.2 MB");
        assertThat(ByteSizes.human(1024 * 1024 - 1)).isEqualTo("1 MB");
        assertThat(ByteSizes.human(5L * 1024 * 1024 * 1024)).isEqualTo("5 GB");
        assertThat(ByteSizes.human(Long.MAX_VALUE)).isEqualTo("8 EB");
    }

    @Test
    void eachHostIsOneLineBusiestFirstWithItsRefusals() {
        RunEgress record = new RunEgress(UUID.randomUUID(), new EgressSummary(6, 4, 2, 42_000, 1_300_000, List.of(
                new HostTraffic("pypi.org", 443, 1, 900, 2048, 0),
                new HostTraffic("api.anthropic.com", 443, 3, 41_984, 1_258_291, 0),
                new HostTraffic("blocked.test", 8443, 2, 0, 0, 2))), List.of(), List.of(
                new MaskedUse("GITHUB_TOKEN", "api.github.com", 3), new MaskedUse("ANTHROPIC_API_KEY",
                        "api.anthropic.com", 1)));
        Views.Network network = NetworkView.of(record);
        assertThat(network.hosts()).extracting(Views.HostLine::text).containsExactly(
                "api.anthropic.com:443 · 3 connections · 41 KB out / 1.2 MB in",
                "blocked.test:8443 · 2 connections · 0 B out / 0 B in · 2 refused",
                "pypi.org:443 · 1 connection · 900 B out / 2 KB in");
        assertThat(network.totals()).isEqualTo("6 connections in total (4 allowed, 2 refused) · 41 KB out / 1.2 MB in");
        assertThat(network.masked()).containsExactly("GITHUB_TOKEN → api.github.com · 3 requests swapped",
                "ANTHROPIC_API_KEY → api.anthropic.com · 1 request swapped");
        assertThat(NetworkView.of(null).hosts()).isEmpty();
        assertThat(NetworkView.of(null).masked()).isEmpty();
        assertThat(NetworkView.of(null).totals()).isNull();
    }
}
