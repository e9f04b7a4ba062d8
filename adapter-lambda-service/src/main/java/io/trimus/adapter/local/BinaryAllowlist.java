package io.trimus.adapter.local;

import io.trimus.adapter.run.RunRejected;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * TRIMUS_CLAUDE_BINARY_ALLOWLIST / TRIMUS_CODEX_BINARY_ALLOWLIST: which binary a host-process agent may run. An entry
 * with a slash is an absolute path the resolved binary must equal; any other entry is a basename it must have.
 */
public final class BinaryAllowlist {
    private final String knob;
    private final List<String> entries;

    public BinaryAllowlist(String knob, List<String> entries) {
        this.knob = knob;
        this.entries = entries.stream().map(String::strip).filter(e -> !e.isEmpty()).toList();
        for (String entry : this.entries) {
            if (entry.contains("/") && !entry.startsWith("/")) {
                throw new IllegalArgumentException(knob + " entries are basenames or absolute paths, got '" + entry
                        + "'");
            }
        }
    }

    /**
     * Resolves the agent's command as the shell would (an absolute path as it is, a name through PATH) and checks it.
     *
     * @param path the PATH the service runs with
     * @throws RunRejected when no such executable exists or it is not on the allowlist
     */
    public Path resolve(String command, String path) {
        Path binary = command.startsWith("/") ? Path.of(command).normalize() : onPath(command, path);
        if (binary == null || !Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            throw new RunRejected("binary " + command + " was not found" + (command.startsWith("/") ? ""
                    : " on the adapter service's PATH") + " or is not executable");
        }
        String name = binary.getFileName().toString();
        boolean allowed = entries.stream().anyMatch(entry -> entry.startsWith("/")
                ? Path.of(entry).normalize().equals(binary)
                : entry.equals(name));
        if (!allowed) {
            throw new RunRejected("binary " + binary + " is not on " + knob + " (" + String.join(", ", entries) + ")");
        }
        return binary;
    }

    private static Path onPath(String name, String path) {
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty() || !dir.startsWith("/")) {
                continue; // a relative PATH entry would depend on the working directory
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate.normalize();
            }
        }
        return null;
    }
}
