package io.trimus.testing.access;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the endpoint table of docs/access.md: rows {@code | service | method | path | who |}. */
public final class AccessTable {
    private AccessTable() {
    }

    /** docs/access.md of the repository a module's tests run in. */
    public static Path document() {
        Path here = Path.of("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            Path doc = dir.resolve("docs/access.md");
            if (Files.isRegularFile(doc)) {
                return doc;
            }
        }
        throw new IllegalStateException("docs/access.md not found above " + here);
    }

    /** The rows of {@code service}. */
    public static List<Endpoint> of(String service) {
        try {
            List<Endpoint> rows = new ArrayList<>();
            for (String line : Files.readAllLines(document())) {
                String[] cells = line.split("\\|", -1);
                if (cells.length == 6 && cells[1].strip().equals(service)) {
                    rows.add(new Endpoint(cells[2].strip(), cells[3].strip(), cells[4].strip()));
                }
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
