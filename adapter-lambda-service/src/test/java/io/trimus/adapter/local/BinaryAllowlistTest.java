package io.trimus.adapter.local;

import io.trimus.adapter.run.RunRejected;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The binary allowlist: basenames and absolute paths, resolved like a shell, refusing everything else. */
class BinaryAllowlistTest {
    @TempDir
    Path dir;

    private Path executable(String relative) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    @Test
    void aBasenameEntryAllowsThatNameFoundOnPathOrGivenAsAPath() throws IOException {
        Path claude = executable("bin/claude");
        BinaryAllowlist list = new BinaryAllowlist("TRIMUS_CLAUDE_BINARY_ALLOWLIST", List.of("claude"));

        assertThat(list.resolve("claude", "relative/dir:" + dir.resolve("empty") + ":" + dir.resolve("bin")))
                .isEqualTo(claude);
        assertThat(list.resolve(claude.toString(), null)).isEqualTo(claude);
    }

    @Test
    void anAbsoluteEntryAllowsOnlyThatFile() throws IOException {
        Path pinned = executable("pinned/codex");
        Path other = executable("elsewhere/codex");
        BinaryAllowlist list = new BinaryAllowlist("TRIMUS_CODEX_BINARY_ALLOWLIST", List.of(pinned.toString()));

        assertThat(list.resolve(pinned.toString(), null)).isEqualTo(pinned);
        assertThatThrownBy(() -> list.resolve(other.toString(), null)).isInstanceOf(RunRejected.class)
                .hasMessage("binary " + other + " is not on TRIMUS_CODEX_BINARY_ALLOWLIST (" + pinned + ")");
        assertThatThrownBy(() -> list.resolve("codex", dir.resolve("elsewhere").toString()))
                .isInstanceOf(RunRejected.class).hasMessageContaining("is not on TRIMUS_CODEX_BINARY_ALLOWLIST");
    }

    @Test
    void anotherNameIsRefused() throws IOException {
        Path evil = executable("bin/evil");
        BinaryAllowlist list = new BinaryAllowlist("TRIMUS_CLAUDE_BINARY_ALLOWLIST", List.of("claude"));

        assertThatThrownBy(() -> list.resolve(evil.toString(), null)).isInstanceOf(RunRejected.class)
                .hasMessageContaining("is not on TRIMUS_CLAUDE_BINARY_ALLOWLIST");
    }

    @Test
    void aMissingOrNonExecutableBinaryIsRefused() throws IOException {
        Path plain = dir.resolve("bin/claude");
        Files.createDirectories(plain.getParent());
        Files.writeString(plain, "not executable");
        BinaryAllowlist list = new BinaryAllowlist("TRIMUS_CLAUDE_BINARY_ALLOWLIST", List.of("claude"));

        assertThatThrownBy(() -> list.resolve(plain.toString(), null)).isInstanceOf(RunRejected.class)
                .hasMessageContaining("not found").hasMessageContaining("not executable");
        assertThatThrownBy(() -> list.resolve("claude", dir.resolve("bin").toString()))
                .isInstanceOf(RunRejected.class).hasMessageContaining("PATH");
    }

    @Test
    void aRelativePathEntryIsAConfigurationError() {
        assertThatThrownBy(() -> new BinaryAllowlist("TRIMUS_CLAUDE_BINARY_ALLOWLIST", List.of("bin/claude")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("basenames or absolute paths");
    }
}
