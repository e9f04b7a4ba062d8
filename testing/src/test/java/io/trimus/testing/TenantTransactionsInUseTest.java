package io.trimus.testing;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every database transaction of the services goes through io.trimus.commons.rows (which sets the company scope
 * row-level security reads): Panache's own transaction and session openers are not used in their main code.
 */
class TenantTransactionsInUseTest {
    private static final Path ROOT = ConfigurationReference.locateRoot();
    private static final Pattern PANACHE_OPENERS = Pattern.compile(
            "@WithTransaction|@WithSession|@ReactiveTransactional|Panache\\.with(Transaction|Session)\\(");

    @Test
    void noServiceOpensATransactionWithoutACompanyScope() {
        List<String> offenders = Stream.of("run-service", "egress-service")
                .flatMap(module -> javaFiles(ROOT.resolve(module).resolve("src/main/java")))
                .filter(file -> PANACHE_OPENERS.matcher(read(file)).find())
                .map(file -> ROOT.relativize(file).toString())
                .toList();
        assertThat(offenders).as("use @TenantTransaction or TenantTransactions instead").isEmpty();
    }

    @Test
    void thePatternFindsEachForm() {
        assertThat(Stream.of("@WithTransaction", "@WithSession", "Panache.withTransaction(() -> x)",
                "Panache.withSession(() -> x)")).allMatch(text -> PANACHE_OPENERS.matcher(text).find());
        assertThat(PANACHE_OPENERS.matcher("@TenantTransaction(Rows.ALL_COMPANIES)").find()).isFalse();
    }

    private static Stream<Path> javaFiles(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
