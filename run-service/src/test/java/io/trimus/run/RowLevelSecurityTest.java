package io.trimus.run;

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

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PostgreSQL's row-level security, seen through the service's own login role and Hibernate session: a statement
 * without any company filter returns only the companies the transaction names, a write for another company fails,
 * and a transaction that names none sees nothing.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RowLevelSecurityTest {
    private static UUID companyA;
    private static UUID companyB;

    @BeforeEach
    void twoCompaniesWithAnAgentEach() {
        if (companyA == null) {
            companyA = company("rls-a");
            companyB = company("rls-b");
        }
    }

    @Test
    void anUnfilteredQuerySeesOnlyTheNamedCompany() throws Throwable {
        RowVisibility onlyA = RowVisibility.of(Set.of(companyA));

        assertThat(companiesIn("select distinct company_id from run.agent", onlyA)).containsExactly(companyA);
        assertThat(companiesIn("select id from run.company", onlyA)).containsExactly(companyA);
        assertThat(companiesIn("select distinct company_id from run.membership", onlyA)).isSubsetOf(companyA);
    }

    @Test
    void everyCompanyIsVisibleOnlyWhenTheTransactionSaysSo() throws Throwable {
        assertThat(companiesIn("select distinct company_id from run.agent", RowVisibility.all()))
                .contains(companyA, companyB);
        assertThat(companiesIn("select distinct company_id from run.agent",
                RowVisibility.of(Set.of(companyA, companyB)))).containsExactlyInAnyOrder(companyA, companyB);
        assertThat(companiesIn("select id from run.company", RowVisibility.none())).isEmpty();
        assertThat(companiesIn("select distinct company_id from run.run", RowVisibility.none())).isEmpty();
    }

    @Test
    void aWriteForAnotherCompanyFails() throws Throwable {
        RowVisibility onlyA = RowVisibility.of(Set.of(companyA));
        String insert = "insert into run.agent (id, company_id, name, adapter_type, adapter_config, created_at)"
                + " values (gen_random_uuid(), '" + companyB + "', 'smuggled', 'docker', '{}'::jsonb, now())";

        assertThatThrownBy(() -> update(insert, onlyA)).hasStackTraceContaining("row-level security");
        assertThat(companiesIn("select distinct company_id from run.agent where name = 'smuggled'",
                RowVisibility.all())).isEmpty();
        // another company's rows are not there to change or delete
        assertThat(update("update run.agent set name = 'renamed' where company_id = '" + companyB + "'", onlyA))
                .isZero();
        assertThat(update("delete from run.agent where company_id = '" + companyB + "'", onlyA)).isZero();
        assertThat(companiesIn("select company_id from run.agent where company_id = '" + companyB
                + "' and name = 'builder'", RowVisibility.all())).containsExactly(companyB);
    }

    @Test
    void everyTableThatCarriesACompanyIsGuarded() throws Throwable {
        List<String> unguarded = VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.within(
                RowVisibility.none(), () -> Panache.getSession().chain(s -> s.createNativeQuery(
                        "select c.relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                                + " where n.nspname = 'run' and c.relkind = 'r' and not c.relrowsecurity"
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

        assertThat(role).containsExactly("trimus_run", false, false);
    }

    private static List<UUID> companiesIn(String sql, RowVisibility visibility) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.within(visibility,
                () -> Panache.getSession().chain(s -> s.createNativeQuery(sql, UUID.class).getResultList())));
    }

    private static int update(String sql, RowVisibility visibility) {
        try {
            return VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.within(visibility,
                    () -> Panache.getSession().chain(s -> s.createNativeQuery(sql).executeUpdate())));
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static UUID company(String name) {
        String id = given().contentType("application/json").body(Map.of("name", name + "-" + UUID.randomUUID()))
                .post("/api/companies").then().statusCode(201).extract().path("id");
        Api.createDockerAgent(id, Map.of("image", "trimus-test/busybox:latest"));
        return UUID.fromString(id);
    }
}
