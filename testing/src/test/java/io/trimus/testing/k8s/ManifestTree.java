package io.trimus.testing.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A directory of kustomizations and the YAML files they list (the repository's {@code k8s/}, or a test fixture):
 * reads each file once and resolves what a kustomization's resources and patches are.
 */
public final class ManifestTree {

    private static final String DIR_NAME = "k8s";

    private final Path root;
    private final Map<Path, List<Manifest>> parsed = new HashMap<>();

    private ManifestTree(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** The tree at {@code root}. */
    public static ManifestTree at(Path root) {
        return new ManifestTree(root);
    }

    /** The repository's {@code k8s/}: the first one found walking up from the working directory. */
    public static ManifestTree locate() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(DIR_NAME).resolve("base").resolve(Kustomization.FILE_NAME))) {
                return at(dir.resolve(DIR_NAME));
            }
        }
        throw new IllegalStateException("no k8s/base/" + Kustomization.FILE_NAME + " above " + Path.of("").toAbsolutePath());
    }

    /** The tree's directory. */
    public Path root() {
        return root;
    }

    /** How problems name a file: relative to the tree's parent, e.g. {@code k8s/base/run-service.yaml}. */
    public String source(Path file) {
        return root.getParent().relativize(file.toAbsolutePath().normalize()).toString();
    }

    /** Every kustomization.yaml in the tree, in path order. */
    public List<Kustomization> kustomizations() {
        return yamlFiles().stream().filter(ManifestTree::isKustomization)
                .map(f -> new Kustomization(f.getParent(), source(f), ManifestReader.tree(f))).toList();
    }

    /** The kustomization in {@code dir} (relative to the root), e.g. {@code base}. */
    public Kustomization kustomization(String dir) {
        return kustomizations().stream().filter(k -> k.dir().equals(root.resolve(dir).normalize())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no " + Kustomization.FILE_NAME + " in " + dir));
    }

    /** Every .yaml / .yml file in the tree. */
    public List<Path> yamlFiles() {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> Files.isRegularFile(f) && f.toString().matches(".*\\.ya?ml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file or directory a kustomization entry points at. */
    public Path resolve(Kustomization k, String entry) {
        return k.dir().resolve(entry).normalize();
    }

    /** The kustomization's resources before patches: its files, and the resources of the kustomizations it includes.
     * Entries that do not exist are left out (KustomizationCheck reports them). */
    public Manifests resources(Kustomization k) {
        List<Manifest> all = new ArrayList<>();
        for (String entry : k.resources()) {
            Path target = resolve(k, entry);
            if (Files.isRegularFile(target)) {
                all.addAll(read(target));
            } else if (Files.isRegularFile(target.resolve(Kustomization.FILE_NAME))) {
                Path file = target.resolve(Kustomization.FILE_NAME);
                all.addAll(resources(new Kustomization(target, source(file), ManifestReader.tree(file))).all());
            }
        }
        return new Manifests(all);
    }

    /** The documents of one file, parsed once. */
    public List<Manifest> read(Path file) {
        return parsed.computeIfAbsent(file.toAbsolutePath().normalize(), f -> ManifestReader.read(f, source(f)));
    }

    /** The tree's README.md, if it has one. */
    public Optional<String> readme() {
        Path readme = root.resolve("README.md");
        try {
            return Files.isRegularFile(readme) ? Optional.of(Files.readString(readme)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the file is a kustomization rather than a manifest. */
    public static boolean isKustomization(Path file) {
        return file.getFileName().toString().equals(Kustomization.FILE_NAME);
    }
}
