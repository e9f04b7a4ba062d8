package io.trimus.commons.rows;

import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class RowVisibilityTest {
    private static final UUID A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID B = UUID.fromString("00000000-0000-0000-0000-00000000000b");

    @Test
    void theSettingsNameExactlyTheCompaniesInAStableOrder() {
        RowVisibility both = RowVisibility.of(Set.of(B, A));

        assertThat(both.allCompaniesSetting()).isEmpty();
        assertThat(both.companyIdsSetting()).isEqualTo(A + "," + B);
        assertThat(both).isEqualTo(RowVisibility.of(Set.of(A, B)));
    }

    @Test
    void allAndNoneAreExplicit() {
        assertThat(RowVisibility.all().allCompaniesSetting()).isEqualTo("on");
        assertThat(RowVisibility.all().companyIdsSetting()).isEmpty();
        assertThat(RowVisibility.none().allCompaniesSetting()).isEmpty();
        assertThat(RowVisibility.none().companyIdsSetting()).isEmpty();
    }
}
