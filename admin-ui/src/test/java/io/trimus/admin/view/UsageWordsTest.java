package io.trimus.admin.view;

import io.trimus.admin.client.RunServiceApi.AgentUsage;
import io.trimus.admin.client.RunServiceApi.Usage;
import io.trimus.admin.view.Views.Flag;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** What a run's CLI reported it used, in the words the pages use; nothing reported is never shown as zero. */
class UsageWordsTest {

    @Test
    void aRunShowsOnlyTheFiguresItsCliReported() {
        Usage all = new Usage(1200L, 345L, 800L, 100L, 50L, new BigDecimal("0.012346"), "claude-sonnet-4-5", 2300L, 3);
        assertThat(UsageWords.facts(all)).extracting(Flag::name, Flag::value).containsExactly(
                Tuple.tuple("Tokens in", "1,200"),
                Tuple.tuple("Tokens out", "345"),
                Tuple.tuple("Cache read / write", "800 / 100"),
                Tuple.tuple("Reasoning tokens", "50"),
                Tuple.tuple("Cost", "$0.012346 (as the CLI stated it)"),
                Tuple.tuple("Model", "claude-sonnet-4-5"),
                Tuple.tuple("API duration", "2.3 s"),
                Tuple.tuple("Turns", "3"));

        Usage some = new Usage(null, 7L, null, 0L, null, null, null, null, null);
        assertThat(UsageWords.facts(some)).extracting(Flag::name, Flag::value).containsExactly(
                Tuple.tuple("Tokens out", "7"),
                Tuple.tuple("Cache read / write", "— / 0"));
        assertThat(UsageWords.facts(null)).isEmpty();
    }

    @Test
    void costsAndDurationsReadNaturally() {
        assertThat(UsageWords.usd(new BigDecimal("3"))).isEqualTo("$3.00");
        assertThat(UsageWords.usd(new BigDecimal("0.750000"))).isEqualTo("$0.75");
        assertThat(UsageWords.usd(new BigDecimal("1E+1"))).isEqualTo("$10.00");
        assertThat(UsageWords.usd(new BigDecimal("1234.5"))).isEqualTo("$1234.50");
        assertThat(UsageWords.usd(null)).isEqualTo("—");
        assertThat(UsageWords.duration(850L)).isEqualTo("850 ms");
        assertThat(UsageWords.duration(59_999L)).isEqualTo("60.0 s");
        assertThat(UsageWords.duration(245_000L)).isEqualTo("4 min 5 s");
        assertThat(UsageWords.count(1_000_000_000_000L)).isEqualTo("1,000,000,000,000");
    }

    @Test
    void aSummaryLineShowsADashWhereNoRunReportedAFigure() {
        UUID agent = UUID.randomUUID();
        Views.UsageRow row = UsageWords.row(agent.toString(), "builder",
                new AgentUsage(agent, 4, 0, null, null, null, null, null, null));
        assertThat(row).isEqualTo(
                new Views.UsageRow(agent.toString(), "builder", "4", "0", "—", "—", "— / —", "—"));
    }
}
