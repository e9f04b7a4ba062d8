package io.trimus.events.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallerTest {
    private static final UUID MINE = UUID.randomUUID();
    private static final UUID THEIRS = UUID.randomUUID();

    @Test
    void aRoleCoversItselfAndTheWeakerOnesOnly() {
        assertThat(CompanyRole.ADMIN.covers(CompanyRole.VIEWER)).isTrue();
        assertThat(CompanyRole.MEMBER.covers(CompanyRole.MEMBER)).isTrue();
        assertThat(CompanyRole.MEMBER.covers(CompanyRole.ADMIN)).isFalse();
        assertThat(CompanyRole.VIEWER.covers(CompanyRole.MEMBER)).isFalse();
        assertThat(CompanyRole.parse("owner")).isEmpty();
        assertThat(CompanyRole.parse("Admin")).isEmpty();
    }

    @Test
    void aCallerMayActInItsCompaniesWithItsRoleAndAnOperatorEverywhere() {
        Caller member = new Caller(Caller.USER, UUID.randomUUID(), "a@example.com", false,
                List.of(new Caller.Membership(MINE, CompanyRole.MEMBER)));
        assertThat(member.may(MINE, CompanyRole.VIEWER)).isTrue();
        assertThat(member.may(MINE, CompanyRole.ADMIN)).isFalse();
        assertThat(member.may(THEIRS, CompanyRole.VIEWER)).isFalse();
        Caller operator = new Caller(Caller.TOKEN, UUID.randomUUID(), "ops", true, null);
        assertThat(operator.may(THEIRS, CompanyRole.ADMIN)).isTrue();
        assertThat(operator.roleIn(THEIRS)).isEmpty();
    }

    @Test
    void theMeAnswerReadsBackAsTheSameCaller() throws Exception {
        ObjectMapper json = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        Caller caller = new Caller(Caller.TOKEN, UUID.randomUUID(), "ci", false,
                List.of(new Caller.Membership(MINE, CompanyRole.VIEWER)));
        String text = json.writeValueAsString(caller);
        assertThat(text).contains("\"company_id\":\"" + MINE + "\"").contains("\"role\":\"viewer\"")
                .doesNotContain("describe");
        assertThat(json.readValue(text, Caller.class)).isEqualTo(caller);
        assertThatThrownBy(() -> json.readValue(text.replace("viewer", "owner"), Caller.class))
                .hasMessageContaining("role must be admin, member or viewer");
    }
}
