package io.trimus.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code java} command line of a child JVM that runs one of this module's mains with the broker and database
 * jars, which are optional dependencies and so never on the caller's (Quarkus) classpath.
 */
public final class ChildJvm {
    static final String CLASSPATH_RESOURCE = "infra.classpath";

    private ChildJvm() {
    }

    static List<String> command(Class<?> mainClass, List<String> jvmOptions, List<String> args) {
        return command(mainClass.getName(), jvmOptions, args);
    }

    /** The command line of {@code mainClass}, which may be one of the optional dependencies (not loadable here). */
    static List<String> command(String mainClass, List<String> jvmOptions, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath());
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /** The java of the running JVM, so the children run on the same JDK as the tests. */
    static String javaExecutable() {
        Path fromHome = Path.of(System.getProperty("java.home"), "bin", "java");
        if (Files.isExecutable(fromHome)) {
            return fromHome.toString();
        }
        return ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot find the java executable of this JVM"));
    }

    static String classpath() {
        return ownLocation() + java.io.File.pathSeparator + recordedClasspath();
    }

    private static String recordedClasspath() {
        try (InputStream in = ChildJvm.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("io/trimus/testing/" + CLASSPATH_RESOURCE
                        + " is missing: build the testing module with ./mvnw -pl testing install");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The classes directory or jar holding this module's code, wherever the caller's classloader found it. */
    static Path ownLocation() {
        CodeSource source = ChildJvm.class.getProtectionDomain().getCodeSource();
        if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
            return toPath(source.getLocation());
        }
        // Quarkus' test classloader may not expose a file code source; the resource URL still tells where we live.
        URL resource = ChildJvm.class.getResource(CLASSPATH_RESOURCE);
        if (resource != null) {
            String url = resource.toString();
            if (url.startsWith("jar:file:")) {
                return Path.of(URI.create(url.substring("jar:".length(), url.indexOf("!/"))));
            }
            if (url.startsWith("file:")) {
                return toPath(resource).getParent().getParent().getParent().getParent();
            }
        }
        throw new IllegalStateException("cannot locate the trimus-testing classes (code source " + source
                + ", resource " + resource + ")");
    }

    private static Path toPath(URL url) {
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("not a file location: " + url, e);
        }
    }
}
