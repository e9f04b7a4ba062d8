package io.trimus.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.exception.NotFoundException;

/**
 * Local test images, built with docker-java because no registry is reachable here. {@link #busybox()} is a 2 MB
 * image from scratch with the host's static busybox, an {@code agent} user (uid 1000) and a setuid-root helper
 * {@code /usr/local/bin/euid} that prints its effective uid, so tests can prove that no-new-privileges holds.
 * {@link #cliStandIn()} adds to it a stand-in for the {@code claude} and {@code codex} CLIs (DESIGN.md §9), a shell
 * script that reports its argv, environment and uid and runs {@code @directives} from the prompt; the same script
 * runs on the host through {@link #cliStandInScript(Path, String)} for the host-process adapters.
 */
public final class TestImages {
    /** The busybox test image. */
    public static final String BUSYBOX = "trimus-test/busybox:latest";
    /** The CLI stand-in image: the busybox image plus {@code /usr/local/bin/claude} and {@code codex}, uid 1000. */
    public static final String CLI_STANDIN = "trimus-test/cli-standin:latest";
    /**
     * The HTTP tools image: the busybox image plus the host's {@code curl} and {@code openssl} with every library they
     * load, a real HTTP/TLS client (and {@code openssl s_server}) for egress tests.
     */
    public static final String HTTP_TOOLS = "trimus-test/http-tools:latest";
    /** busybox and the real DNS tunnelling clients dns2tcpc and iodine ({@link #tunnelTools}). */
    public static final String TUNNEL_TOOLS = "trimus-test/tunnel-tools:latest";
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
    private static final String CLI_STANDIN_RESOURCE = "cli-standin.sh";
    /** Label holding the digest of the script and Dockerfile, so an edited script rebuilds the image. */
    private static final String CLI_STANDIN_DIGEST_LABEL = "trimus.test.cli-standin.sha256";
    private static final String CLI_STANDIN_DOCKERFILE = """
            FROM %s
            LABEL trimus.test=true
            COPY cli-standin.sh /usr/local/bin/claude
            COPY cli-standin.sh /usr/local/bin/codex
            RUN ["/bin/sh", "-c", "chmod 755 /usr/local/bin/claude /usr/local/bin/codex \
            && mkdir -p /workspace && chmod 1777 /workspace"]
            USER 1000:1000
            WORKDIR /workspace
            """.formatted(BUSYBOX);
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
            build(docker, context, BUSYBOX, Map.of());
            return BUSYBOX;
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the build context of " + BUSYBOX, e);
        } finally {
            deleteQuietly(context);
        }
    }

    /** Builds the CLI stand-in image (and the busybox image under it) with a client of its own if missing; returns its name. */
    public static String cliStandIn() {
        try (DockerClient docker = DockerClients.local()) {
            return cliStandIn(docker);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Builds the CLI stand-in image (and the busybox image under it) if missing or built from another version of
     * the script; returns its name. Thread-safe.
     */
    public static synchronized String cliStandIn(DockerClient docker) {
        busybox(docker);
        byte[] script = cliStandInScriptBytes();
        String digest = sha256(script, CLI_STANDIN_DOCKERFILE.getBytes(StandardCharsets.UTF_8));
        if (digest.equals(label(docker, CLI_STANDIN, CLI_STANDIN_DIGEST_LABEL))) {
            return CLI_STANDIN;
        }
        Path context = null;
        try {
            context = Files.createTempDirectory("trimus-cli-standin-image");
            cliStandInScript(context, CLI_STANDIN_RESOURCE);
            Files.writeString(context.resolve("Dockerfile"), CLI_STANDIN_DOCKERFILE, StandardCharsets.UTF_8);
            build(docker, context, CLI_STANDIN, Map.of(CLI_STANDIN_DIGEST_LABEL, digest));
            return CLI_STANDIN;
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the build context of " + CLI_STANDIN, e);
        } finally {
            deleteQuietly(context);
        }
    }

    /** Builds the HTTP tools image (and the busybox image under it) if missing; returns its name. Thread-safe. */
    public static synchronized String httpTools(DockerClient docker) {
        return hostTools(docker, HTTP_TOOLS, List.of("/usr/bin/curl", "/usr/bin/openssl"),
                List.of(Path.of("/usr/lib/ssl/openssl.cnf")));
    }

    /**
     * {@value #TUNNEL_TOOLS}: busybox plus the host's real DNS tunnelling clients, Debian's {@code dns2tcpc} (package
     * dns2tcp) and {@code iodine} (package iodine), with the shared libraries they link; built once per engine.
     */
    public static synchronized String tunnelTools(DockerClient docker) {
        return hostTools(docker, TUNNEL_TOOLS, List.of("/usr/bin/dns2tcpc", "/usr/sbin/iodine"), List.of());
    }

    /**
     * An image {@code tag} of busybox plus {@code binaries} of the host, each with the shared libraries it links, and
     * the {@code files} that exist; built once per engine.
     */
    private static String hostTools(DockerClient docker, String tag, List<String> binaries, List<Path> files) {
        busybox(docker);
        if (exists(docker, tag)) {
            return tag;
        }
        Path context = null;
        try {
            context = Files.createTempDirectory("trimus-host-tools-image");
            Path rootfs = context.resolve("rootfs");
            for (String binary : binaries) {
                if (!Files.isExecutable(Path.of(binary))) {
                    throw new IllegalStateException(binary + " not found: ./trimus test installs it (scripts/test.sh)");
                }
                copyInto(rootfs, Path.of(binary));
                for (Path library : linkedLibraries(binary)) {
                    copyInto(rootfs, library);
                }
            }
            for (Path file : files) {
                if (Files.exists(file)) {
                    copyInto(rootfs, file);
                }
            }
            Files.writeString(context.resolve("Dockerfile"), "FROM " + BUSYBOX + "\nLABEL " + LABEL
                    + "=true\nCOPY rootfs/ /\n", StandardCharsets.UTF_8);
            build(docker, context, tag, Map.of());
            return tag;
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the build context of " + tag, e);
        } finally {
            deleteQuietly(context);
        }
    }

    /** The shared libraries {@code ldd} lists for {@code binary}, the dynamic loader included. */
    private static List<Path> linkedLibraries(String binary) throws IOException {
        Process ldd = new ProcessBuilder("ldd", binary).redirectErrorStream(true).start();
        String output = new String(ldd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!ldd.waitFor(30, TimeUnit.SECONDS) || ldd.exitValue() != 0) {
                throw new IllegalStateException("ldd " + binary + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running ldd " + binary, e);
        }
        List<Path> libraries = new java.util.ArrayList<>();
        for (String line : output.split("\n")) {
            String text = line.trim();
            int arrow = text.indexOf("=> ");
            String path = arrow >= 0 ? text.substring(arrow + 3) : text;
            int paren = path.indexOf(" (");
            path = paren >= 0 ? path.substring(0, paren) : path;
            if (path.startsWith("/")) {
                libraries.add(Path.of(path));
            }
        }
        return libraries;
    }

    /** Copies {@code file} (its content, links followed) to the same path under {@code rootfs}. */
    private static void copyInto(Path rootfs, Path file) throws IOException {
        Path target = rootfs.resolve(file.toString().substring(1));
        Files.createDirectories(target.getParent());
        Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Builds {@code tag} from {@code base} with its own ENTRYPOINT (JSON exec form), as a tenant's image that tries to
     * wrap or replace whatever command it is given; returns its name. Thread-safe.
     */
    public static synchronized String withEntrypoint(DockerClient docker, String base, String tag,
                                                     String entrypointJson) {
        Path context = null;
        try {
            context = Files.createTempDirectory("trimus-entrypoint-image");
            Files.writeString(context.resolve("Dockerfile"), "FROM " + base + "\nLABEL " + LABEL
                    + "=true\nENTRYPOINT " + entrypointJson + "\n", StandardCharsets.UTF_8);
            build(docker, context, tag, Map.of());
            return tag;
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the build context of " + tag, e);
        } finally {
            deleteQuietly(context);
        }
    }

    /**
     * Writes the CLI stand-in script to {@code dir/name} (mode 755) for use as a host binary, e.g. name
     * {@code claude} or {@code codex} (the script picks its flavour from the name it runs under); returns the path.
     */
    public static Path cliStandInScript(Path dir, String name) {
        Path target = dir.resolve(name);
        try {
            Files.write(target, cliStandInScriptBytes());
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the CLI stand-in script to " + target, e);
        }
    }

    private static byte[] cliStandInScriptBytes() {
        try (InputStream in = TestImages.class.getResourceAsStream(CLI_STANDIN_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource io/trimus/testing/" + CLI_STANDIN_RESOURCE + " is missing");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void build(DockerClient docker, Path context, String tag, Map<String, String> labels) {
        docker.buildImageCmd(context.toFile())
                .withTags(Set.of(tag))
                .withLabels(labels)
                .withPull(false)
                .withRemove(true)
                .withForcerm(true)
                .exec(new BuildImageResultCallback())
                .awaitImageId(5, TimeUnit.MINUTES);
    }

    /** The value of a label of a local image, or null when the image or the label is missing. */
    private static String label(DockerClient docker, String image, String name) {
        try {
            InspectImageResponse inspect = docker.inspectImageCmd(image).exec();
            Map<String, String> labels = inspect.getConfig() == null ? null : inspect.getConfig().getLabels();
            return labels == null ? null : labels.get(name);
        } catch (NotFoundException e) {
            return null;
        }
    }

    private static String sha256(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) {
                digest.update(part);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
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
