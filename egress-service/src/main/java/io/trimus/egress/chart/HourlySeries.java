package io.trimus.egress.chart;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

import java.util.List;
import java.util.UUID;

/**
 * One per-hour series in one statement: PostgreSQL buckets the rows of the window by whole hours since its start and
 * {@code generate_series} fills the hours without rows with zeros, so exactly one value per hour comes back and rows
 * never leave the database. Buckets are counted from the window's start, not by {@code date_trunc}, so the session's
 * time zone cannot shift them.
 */
final class HourlySeries {
    private HourlySeries() {
    }

    /**
     * {@code value} (an aggregate such as {@code count(*)}) per hour of {@code window} over the rows of {@code table}
     * whose {@code timeColumn} lies in it and that meet {@code condition}; of one company unless {@code companyId}
     * is null. Table, column and condition are fixed text from this package, never input.
     */
    static Uni<long[]> query(HourWindow window, String value, String table, String timeColumn, String condition,
                             UUID companyId) {
        String sql = "select b.i, coalesce(c.n, 0) from generate_series(0, ?3) as b(i) left join ("
                + "select cast(floor((extract(epoch from " + timeColumn + ") - ?4) / 3600) as integer) as i, "
                + value + " as n from " + table + " where " + timeColumn + " >= ?1 and " + timeColumn + " < ?2 and "
                + condition + (companyId == null ? "" : " and company_id = ?5")
                + " group by 1) as c on c.i = b.i order by b.i";
        return Panache.getSession().flatMap(session -> {
            var query = session.createNativeQuery(sql, Object[].class)
                    .setParameter(1, window.from())
                    .setParameter(2, window.to())
                    .setParameter(3, window.hours() - 1)
                    .setParameter(4, window.from().getEpochSecond());
            if (companyId != null) {
                query.setParameter(5, companyId);
            }
            return query.getResultList();
        }).map(rows -> values(rows, window.hours()));
    }

    private static long[] values(List<Object[]> rows, int hours) {
        long[] values = new long[hours];
        for (Object[] row : rows) {
            int i = ((Number) row[0]).intValue();
            if (i >= 0 && i < hours) {
                values[i] = ((Number) row[1]).longValue();
            }
        }
        return values;
    }
}
