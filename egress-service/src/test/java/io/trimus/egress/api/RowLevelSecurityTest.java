package io.trimus.egress.api;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.trimus.commons.rows.RowVisibility;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.trimus.egress.api.EgressApi.putAllowlist;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PostgreSQL's row-level security on egress-service's tables, through the service's own login role: an unfiltered
 * query returns only the named company's allowlist, a write for another company fails, no scope shows nothing.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RowLevelSecurityTest {
    private static UUID companyA;
    private static UUID companyB;

    @BeforeEach
    void twoCompaniesWithAnAllowlistEach() {
        if (companyA == null) {
            companyA = UUID.randomUUID();
            companyB = UUID.randomUUID();
            putAllowlist(companyA, Map.of("entries", List.of("a.example.com"))).statusCode(200);
            putAllowlist(companyB, Map.of("entries", List.of("b.example.com"))).statusCode(200);
        }
    }

    @Test
    void anUnfilteredQuerySeesOnlyTheNamedCompany() throws Throwable {
        String companies = "select distinct company_id from egress.allowlist_entry where company_id in ('"
                + companyA + "', '" + companyB + "')";

        assertThat(companiesIn(companies, RowVisibility.of(Set.of(companyA)))).containsExactly(companyA);
        assertThat(companiesIn("select distinct company_id from egress.allowlist_entry",
                RowVisibility.of(Set.of(companyA)))).containsExactly(companyA);
        assertThat(companiesIn(companies, RowVisibility.all())).containsExactlyInAnyOrder(companyA, companyB);
        assertThat(companiesIn("select company_id from egress.allowlist", RowVisibility.none())).isEmpty();
    }

    @Test
    void aWriteForAnotherCompanyFails() throws Throwable {
        RowVisibility onlyA = RowVisibility.of(Set.of(companyA));

        assertThatThrownBy(() -> update("insert into egress.allowlist_entry (company_id, entry, created_at) values ('"
                + companyB + "', 'smuggled.example.com', now())", onlyA)).hasStackTraceContaining("row-level security");
        assertThat(update("delete from egress.allowlist_entry where company_id = '" + companyB + "'", onlyA))
                .isZero();
        assertThat(EgressApi.allowlist(companyB)).containsExactly("b.example.com");
    }

    @Test
    void everyTableThatCarriesACompanyIsGuarded() throws Throwable {
        List<String> unguarded = VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.within(
                RowVisibility.none(), () -> Panache.getSession().chain(s -> s.createNativeQuery(
                        "select c.relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                                + " where n.nspname = 'egress' and c.relkind = 'r' and not c.relrowsecurity"
                                + " and exists (select 1 from pg_attribute a where a.attrelid = c.oid"
                                + " and a.attname = 'company_id' and not a.attisdropped)", String.class)
                        .getResultList())));

        assertThat(unguarded).as("tables with company_id but no row-level security").isEmpty();
    }

    @Test
    void theServiceLogsInAsARoleRowLevelSecurityBinds() throws Throwable {
        Object[] role = VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.within(RowVisibility.none(),
                () -> Panache.getSession().chain(s -> s.createNativeQuery("select current_user::text, rolsuper,"
                        + " rolbypassrls from pg_roles where rolname = current_user", Object[].class)
                        .getSingleResult())));

        assertThat(role).containsExactly("trimus_egress", false, false);
    }

    private static List<UUID> companiesIn(String sql, RowVisibility visibility) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.within(visibility,
                () -> Panache.getSession().chain(s -> s.createNativeQuery(sql, UUID.class).getResultList())));
    }

    private static int update(String sql, RowVisibility visibility) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.within(visibility,
                () -> Panache.getSession().chain(s -> s.createNativeQuery(sql).executeUpdate())));
    }
}
