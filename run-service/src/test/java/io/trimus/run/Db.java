package io.trimus.run;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Reads run-service's tables directly, the way an attacker with a database dump would see them; writes them only to
 * stage what the API cannot (an outbox row waiting out a retry).
 */
final class Db {
    private Db() {
    }

    /** The rows' first column as bytes. */
    static List<byte[]> bytes(String sql, Object... params) {
        List<byte[]> rows = new ArrayList<>();
        query(sql, params, rs -> rows.add(rs.getBytes(1)));
        return rows;
    }

    /** The rows' first column as text. */
    static List<String> texts(String sql, Object... params) {
        List<String> rows = new ArrayList<>();
        query(sql, params, rs -> rows.add(rs.getString(1)));
        return rows;
    }

    /** Runs an insert, update or delete; returns the rows it touched. */
    static int update(String sql, Object... params) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("update failed: " + sql, e);
        }
    }

    private interface Row {
        void read(ResultSet rs) throws SQLException;
    }

    private static void query(String sql, Object[] params, Row row) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    row.read(rs);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("query failed: " + sql, e);
        }
    }

    private static Connection connect() throws SQLException {
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
