package io.trimus.adapter.canary;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The probe's command: busybox {@code sh -c} with resources/canary/probe.sh, which reads its parameters from the
 * environment ({@link ProbeTargets#env}), so nothing of a request is ever spliced into the script.
 */
final class ProbeScript {

    static final String RESOURCE = "/canary/probe.sh";
    private static final String SCRIPT = load();

    private ProbeScript() {
    }

    /** The probe container's whole argv. */
    static List<String> command() {
        return List.of("sh", "-c", SCRIPT);
    }

    private static String load() {
        try (InputStream in = ProbeScript.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the adapter service");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
