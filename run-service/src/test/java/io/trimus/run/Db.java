package io.trimus.run;


import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

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

    /** A connection in a transaction of its own (no autocommit), to hold row locks while the service runs. */
    static Connection transaction() throws SQLException {
        Connection connection = connect();
        connection.setAutoCommit(false);
        return connection;
    }

    /** The rows' first column as text, read in {@code connection}'s transaction. */
    static List<String> texts(Connection connection, String sql, Object... params) {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("query failed: " + sql, e);
        }
        return rows;
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
        return io.trimus.testing.OwnerDatabase.connect();
    }
}
