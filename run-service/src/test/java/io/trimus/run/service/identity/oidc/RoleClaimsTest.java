package io.trimus.run.service.identity.oidc;

import io.trimus.events.auth.CompanyRole;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the roles claim of an ID token reads: direct roles, mapped names, the strongest role per company, bounds. */
class RoleClaimsTest {
    private static final UUID ACME = UUID.randomUUID();
    private static final UUID GLOBEX = UUID.randomUUID();

    @Test
    void directRolesAndMappedNamesBecomeGrantsWithTheStrongestRolePerCompany() {
        RoleClaims claims = RoleClaims.withMapping(List.of("platform=operator", "acme-devs=" + ACME + ":member"));

        Grants grants = claims.read(List.of("acme-devs", ACME + ":viewer", GLOBEX + ":admin", "platform",
                "unmapped-group", "not-a-uuid:admin", GLOBEX + ":owner", 42));

        assertThat(grants.operator()).isTrue();
        assertThat(grants.companies()).isEqualTo(Map.of(ACME, CompanyRole.MEMBER, GLOBEX, CompanyRole.ADMIN));
    }

    @Test
    void aSingleStringClaimAndNoClaimAtAllAreRead() {
        RoleClaims claims = RoleClaims.withMapping(List.of());

        assertThat(claims.read(ACME + ":admin").companies()).isEqualTo(Map.of(ACME, CompanyRole.ADMIN));
        assertThat(claims.read(null).none()).isTrue();
        assertThat(claims.read("operator").operator()).isTrue();
    }

    @Test
    void aMalformedMappingEntryIsRefusedNamingIt() {
        assertThatThrownBy(() -> RoleClaims.withMapping(List.of("devs=" + ACME + ":owner")))
                .hasMessageContaining("devs=" + ACME + ":owner");
        assertThatThrownBy(() -> RoleClaims.withMapping(List.of("=operator"))).hasMessageContaining("=operator");
        assertThatThrownBy(() -> RoleClaims.withMapping(List.of("just-a-name")))
                .hasMessageContaining("just-a-name");
    }

    @Test
    void aClaimWithMoreValuesThanTheBoundIsRefused() {
        RoleClaims claims = RoleClaims.withMapping(List.of());

        assertThat(claims.read(Collections.nCopies(RoleClaims.MAX_VALUES, ACME + ":viewer")).companies()).hasSize(1);
        assertThatThrownBy(() -> claims.read(Collections.nCopies(RoleClaims.MAX_VALUES + 1, ACME + ":viewer")))
                .hasMessageContaining("more than " + RoleClaims.MAX_VALUES);
    }
}
