package io.trimus.egress.policy;

import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A company is enforced unless a stored policy says report, and an older change never wins over a newer one. */
class EgressModeCacheTest {

    @Test
    void aCompanyWithoutAPolicyAndAnUnknownSourceAreEnforced() {
        EgressModeCache cache = new EgressModeCache();

        assertThat(cache.mode(UUID.randomUUID())).isEqualTo(EgressMode.ENFORCE);
        assertThat(cache.mode(null)).isEqualTo(EgressMode.ENFORCE);
    }

    @Test
    void theModeIsPerCompany() {
        EgressModeCache cache = new EgressModeCache();
        UUID reporting = UUID.randomUUID();
        UUID other = UUID.randomUUID();

        cache.replace(reporting, EgressMode.REPORT, 1);

        assertThat(cache.mode(reporting)).isEqualTo(EgressMode.REPORT);
        assertThat(cache.mode(other)).isEqualTo(EgressMode.ENFORCE);
    }

    @Test
    void anOlderRevisionNeverReplacesANewerOne() {
        EgressModeCache cache = new EgressModeCache();
        UUID company = UUID.randomUUID();

        assertThat(cache.replace(company, EgressMode.ENFORCE, 5)).isTrue();
        assertThat(cache.replace(company, EgressMode.REPORT, 4)).isFalse();
        assertThat(cache.replace(company, EgressMode.REPORT, 5)).isFalse();
        assertThat(cache.mode(company)).isEqualTo(EgressMode.ENFORCE);

        assertThat(cache.replace(company, EgressMode.REPORT, 6)).isTrue();
        assertThat(cache.mode(company)).isEqualTo(EgressMode.REPORT);
    }

    @Test
    void itIsTheOneImplementationOfTheContract() {
        EgressModes modes = new EgressModeCache();

        assertThat(modes.mode(UUID.randomUUID())).isEqualTo(EgressMode.ENFORCE);
    }
}
