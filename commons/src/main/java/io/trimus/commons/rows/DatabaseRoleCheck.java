package io.trimus.commons.rows;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Refuses to start a service whose database login could step around row-level security: a superuser, a role with
 * BYPASSRLS, or the owner of the service's tables (owners are not subject to their tables' policies). Fail secure:
 * a misconfigured TRIMUS_DB_USER stops the service instead of silently serving every company's rows.
 */
@ApplicationScoped
public class DatabaseRoleCheck {
    private static final String PRIVILEGES = """
            select r.rolname, r.rolsuper, r.rolbypassrls,
                   (select count(*) from pg_tables t where t.schemaname = :schema and t.tableowner = current_user)
            from pg_roles r where r.rolname = current_user""";

    private final String schema;

    DatabaseRoleCheck(@ConfigProperty(name = "quarkus.flyway.default-schema") String schema) {
        this.schema = schema;
    }

    void onStart(@Observes StartupEvent start) throws Throwable {
        Object[] row = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Panache.getSession()
                .chain(session -> session.createNativeQuery(PRIVILEGES, Object[].class)
                        .setParameter("schema", schema).getSingleResult())));
        refuseIfPrivileged(String.valueOf(row[0]), Boolean.TRUE.equals(row[1]), Boolean.TRUE.equals(row[2]),
                ((Number) row[3]).longValue(), schema);
    }

    /** Throws when a login with these attributes would not be bound by the schema's row-level security. */
    static void refuseIfPrivileged(String role, boolean superuser, boolean bypassRls, long ownedTables,
                                   String schema) {
        String why = superuser ? "is a superuser" : bypassRls ? "has BYPASSRLS"
                : ownedTables > 0 ? "owns " + ownedTables + " tables of schema " + schema : null;
        if (why != null) {
            throw new IllegalStateException("TRIMUS_DB_USER (" + role + ") " + why + ": row-level security would not"
                    + " bind it. Give the service a login role of its own (created by the migration on first start"
                    + " when missing) and let TRIMUS_DB_MIGRATION_USER own the tables; see docs/deployment.md,"
                    + " \"Database roles\".");
        }
    }
}
