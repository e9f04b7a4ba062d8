package io.trimus.testing;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A JDBC connection to the test database as the tables' owner (the Flyway login of {@link TrimusInfraResource}), which
 * row-level security does not bind: for tests that inspect or age rows behind the service's back. The service itself
 * logs in as its own role and sees only the rows its transaction's company scope allows.
 */
public final class OwnerDatabase {
    private OwnerDatabase() {
    }

    /** A new connection; the caller closes it. */
    public static Connection connect() throws SQLException {
        Config config = ConfigProvider.getConfig();
        Properties properties = new Properties();
        properties.setProperty("user", config.getValue("quarkus.flyway.username", String.class));
        properties.setProperty("password", config.getValue("quarkus.flyway.password", String.class));
        // the driver directly: DriverManager may not see a driver loaded by Quarkus' test class loader
        Connection connection = new org.postgresql.Driver()
                .connect(config.getValue("quarkus.datasource.jdbc.url", String.class), properties);
        if (connection == null) {
            throw new SQLException("the PostgreSQL driver does not accept quarkus.datasource.jdbc.url");
        }
        return connection;
    }
}
