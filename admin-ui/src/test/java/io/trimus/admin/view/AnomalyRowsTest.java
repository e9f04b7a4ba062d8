package io.trimus.admin.view;

import io.trimus.events.EgressAnomaly;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every reason of the anomaly contract, the proxy's included, is offered by the filter and said in words. */
class AnomalyRowsTest {

    @Test
    void everyReasonOfTheContractIsOfferedAndSaidInWords() {
        assertThat(AnomalyRows.REASONS).containsExactlyElementsOf(EgressAnomaly.REASONS);
        for (String reason : EgressAnomaly.REASONS) {
            assertThat(AnomalyRows.reasonText(reason)).as(reason).isNotBlank().isNotEqualTo(reason);
        }
        assertThat(AnomalyRows.reasonOptions(EgressAnomaly.PROXY_PORT_DENIED))
                .hasSize(EgressAnomaly.REASONS.size() + 1)
                .filteredOn(Views.Option::selected).singleElement()
                .extracting(Views.Option::value).isEqualTo(EgressAnomaly.PROXY_PORT_DENIED);
    }
}
