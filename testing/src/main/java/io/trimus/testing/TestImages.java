package io.trimus.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;

/**
 * Local test images, built with docker-java because no registry is reachable here. {@link #busybox()} is a 2 MB
 * image from scratch with the host's static busybox, an {@code agent} user (uid 1000) and a setuid-root helper
 * {@code /usr/local/bin/euid} that prints its effective uid, so tests can prove that no-new-privileges holds.
 */
public final class TestImages {
    /** The busybox test image. */
    public static final String BUSYBOX = "trimus-test/busybox:latest";
    /** Every test image carries {@code trimus.test=true}. */
    public static final String LABEL = "trimus.test";

    private static final Path HOST_BUSYBOX = Path.of("/bin/busybox");
    private static final String DOCKERFILE = """
            FROM scratch
            LABEL trimus.test=true
            COPY busybox /bin/busybox
            RUN ["/bin/busybox", "--install", "-s", "/bin"]
            COPY passwd group /etc/
            COPY euid /usr/local/bin/euid
            RUN ["/bin/sh", "-c", "chmod 4755 /usr/local/bin/euid && mkdir -p /tmp /root /home/agent \
            && chmod 1777 /tmp && chown 1000:1000 /home/agent"]
            """;
    private static final String PASSWD = """
            root:x:0:0:root:/root:/bin/sh
            agent:x:1000:1000:agent:/home/agent:/bin/sh
            nobody:x:65534:65534:nobody:/nonexistent:/bin/false
            """;
    private static final String GROUP = """
            root:x:0:
            agent:x:1000:
            nogroup:x:65534:
            """;
    private static final String EUID_C = """
            #include <stdio.h>
            #include <unistd.h>
            int main(void) { printf("%d\\n", (int) geteuid()); return 0; }
            """;

    private TestImages() {
    }

    /** Builds the busybox image with a client of its own if missing; returns its name. */
    public static String busybox() {
        try (DockerClient docker = DockerClients.local()) {
            return busybox(docker, false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Builds the busybox image if missing; returns its name. */
    public static String busybox(DockerClient docker) {
        return busybox(docker, false);
    }

    /** Builds the busybox image if missing, or always with {@code force}; returns its name. Thread-safe. */
    public static synchronized String busybox(DockerClient docker, boolean force) {
        if (!force && exists(docker, BUSYBOX)) {
            return BUSYBOX;
        }
        if (!Files.isExecutable(HOST_BUSYBOX)) {
            throw new IllegalStateException("/bin/busybox not found: install busybox-static (apt-get install busybox-static)");
        }
        Path context = null;
        try {
            context = Files.createTempDirectory("trimus-busybox-image");
            Files.copy(HOST_BUSYBOX, context.resolve("busybox"), StandardCopyOption.COPY_ATTRIBUTES);
            Files.writeString(context.resolve("passwd"), PASSWD, StandardCharsets.UTF_8);
            Files.writeString(context.resolve("group"), GROUP, StandardCharsets.UTF_8);
            Files.writeString(context.resolve("Dockerfile"), DOCKERFILE, StandardCharsets.UTF_8);
            compileStatic(EUID_C, context.resolve("euid"));
            docker.buildImageCmd(context.toFile())
                    .withTags(Set.of(BUSYBOX))
                    .withPull(false)
                    .withRemove(true)
                    .withForcerm(true)
                    .exec(new BuildImageResultCallback())
                    .awaitImageId(5, TimeUnit.MINUTES);
            return BUSYBOX;
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the build context of " + BUSYBOX, e);
        } finally {
            deleteQuietly(context);
        }
    }

    static boolean exists(DockerClient docker, String image) {
        try {
            docker.inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** A static binary runs in an image from scratch, which has no libc. */
    private static void compileStatic(String source, Path binary) throws IOException {
        Path sourceFile = binary.resolveSibling(binary.getFileName() + ".c");
        Files.writeString(sourceFile, source, StandardCharsets.UTF_8);
        List<String> command = List.of("gcc", "-static", "-Os", "-s", "-o", binary.toString(), sourceFile.toString());
        Process gcc;
        try {
            gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("gcc not found: the setuid helper of " + BUSYBOX
                    + " is compiled on the host (apt-get install gcc libc6-dev)", e);
        }
        String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (gcc.waitFor() != 0) {
                throw new IllegalStateException("gcc -static failed for the setuid helper of " + BUSYBOX
                        + " (is libc6-dev installed?): " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while compiling the setuid helper", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            Directories.deleteRecursively(dir);
        } catch (IOException ignored) {
            // a leftover temp dir is harmless
        }
    }
}
