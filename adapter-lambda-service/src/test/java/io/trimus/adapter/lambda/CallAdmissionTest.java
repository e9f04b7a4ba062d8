package io.trimus.adapter.lambda;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.adapter.support.Runs;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.LambdaAdapterConfig;
import io.trimus.events.secrets.Redactor;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lambda caller's bookkeeping of slots and company shares: one company's calls take at most their share of the
 * slots, its further calls wait in its own queue without standing in front of another company's, and a call gives back
 * exactly what it took wherever it ends (before its start was recorded included).
 */
class CallAdmissionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID A = UUID.randomUUID();
    private static final UUID B = UUID.randomUUID();

    @Test
    void aCompanyOverItsShareWaitsWhileAnotherCompanysCallTakesAFreeSlot() {
        CallAdmission admission = new CallAdmission(4, 2);
        CallState a1 = call(A);
        CallState a2 = call(A);
        CallState a3 = call(A);
        CallState b1 = call(B);

        assertThat(admission.admit(a1)).isTrue();
        assertThat(admission.admit(a2)).isTrue();
        assertThat(admission.admit(a3)).isFalse();
        assertThat(admission.admit(b1)).isTrue();
        assertThat(a3.place).isEqualTo(CallAdmission.Place.SHARE_QUEUE);

        assertThat(admission.release(b1)).isEmpty();
        assertThat(admission.release(a1)).containsExactly(a3);
        assertThat(a3.place).isEqualTo(CallAdmission.Place.IN_FLIGHT);
    }

    @Test
    void aCallThatEndsBeforeItsStartWasRecordedGivesBackItsSlot() {
        CallAdmission admission = new CallAdmission(1, 1);
        CallState first = call(A);
        CallState second = call(B);
        assertThat(admission.admit(first)).isTrue();
        assertThat(admission.admit(second)).isFalse();
        assertThat(first.started).isFalse();

        assertThat(admission.release(first)).containsExactly(second);
        assertThat(admission.release(first)).isEmpty();
        assertThat(admission.release(second)).isEmpty();
        assertThat(admission.admit(call(A))).isTrue();
    }

    @Test
    void aCallWithinItsShareWaitsForASlotInOrderAndLeavesTheQueueWhenCancelled() {
        CallAdmission admission = new CallAdmission(2, 2);
        CallState a1 = call(A);
        CallState b1 = call(B);
        CallState a2 = call(A);
        CallState b2 = call(B);
        admission.admit(a1);
        admission.admit(b1);
        assertThat(admission.admit(a2)).isFalse();
        assertThat(admission.admit(b2)).isFalse();
        assertThat(a2.place).isEqualTo(CallAdmission.Place.SLOT_QUEUE);

        assertThat(admission.release(a2)).isEmpty();
        assertThat(admission.release(a1)).containsExactly(b2);
    }

    @Test
    void aShareBelowOneStopsTheServiceNamingTheKnob() {
        assertThatThrownBy(() -> new CallAdmission(16, 0))
                .hasMessage("TRIMUS_COMPANY_MAX_CONCURRENT_LAMBDA_RUNS must be at least 1, got 0");
    }

    private static CallState call(UUID company) {
        RunRequested run = Runs.request(UUID.randomUUID(), UUID.randomUUID(), company, UUID.randomUUID(),
                "lambda", JSON.valueToTree(Map.of("endpoint_url", "https://agent.example/run")), null, "go",
                Instant.now());
        LambdaAdapterConfig config = LambdaAdapterConfig.parse(run.adapterConfig());
        return new CallState(new LambdaCall(run, config, null, Map.of(), new byte[0], Redactor.none()));
    }
}
