package io.trimus.testing.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The ACL table of deploy/kafka-sasl/kafka-users.sh (the compose stack's users), as {@link KafkaAcl}s. */
public final class ComposeAclTable {

    private ComposeAclTable() {
    }

    /** Rows between {@code ACLS='} and the closing quote: user, type, name, literal|prefixed, comma-separated operations. */
    public static List<KafkaAcl> read(Path script) {
        String text;
        try {
            text = Files.readString(script);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int start = text.indexOf("ACLS='") + "ACLS='".length();
        List<KafkaAcl> acls = new ArrayList<>();
        for (String line : text.substring(start, text.indexOf('\'', start)).split("\n")) {
            String[] cells = line.trim().split("\\s+");
            if (cells.length == 5) {
                Set<String> operations = new TreeSet<>(List.of(cells[4].split(",")));
                acls.add(new KafkaAcl(cells[0], cells[1], cells[2], cells[3].equals("prefixed"), operations));
            }
        }
        return acls;
    }
}
