package io.trimus.testing;

import io.trimus.testing.ConfigurationReference.Property;
import io.trimus.testing.ConfigurationReference.TypeDecl;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * docs/configuration.md cannot drift from the code: its reference tables must equal what {@link ConfigurationReference}
 * renders from every service's {@code @ConfigMapping} interfaces and application.properties. A property in the code but
 * not on the page, a default that differs, a property the page lists that no longer exists, or a changed Javadoc line
 * fails the build. {@code -Dtrimus.docs.write=true} (scripts/config-docs.sh) rewrites the page instead.
 */
class ConfigurationReferenceTest {

    private static final Path ROOT = ConfigurationReference.locateRoot();
    private static final Path PAGE = ROOT.resolve("docs/configuration.md");
    private static final String REGENERATE = "regenerate it with scripts/config-docs.sh (./mvnw -B -pl testing -am verify "
            + "-Dtest=ConfigurationReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Dtrimus.docs.write=true)";
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z][^`]*)` \\| `[A-Z0-9_]+` \\| (.*?) \\| .* \\|$");

    private final ConfigurationReference reference = new ConfigurationReference(ROOT);

    @Test
    void theCommittedReferenceIsWhatTheSourcesRender() throws IOException {
        String page = Files.readString(PAGE);
        String rendered = reference.render();
        if (Boolean.getBoolean("trimus.docs.write")) {
            Files.writeString(PAGE, ConfigurationReference.replaceGenerated(page, rendered));
            return;
        }
        String committed = ConfigurationReference.generatedSection(page)
                .orElseGet(() -> fail("docs/configuration.md has no generated section; " + REGENERATE));

        Map<String, String> documented = defaults(committed);
        Map<String, String> actual = defaults(rendered);
        List<String> problems = new ArrayList<>();
        actual.forEach((name, dflt) -> {
            if (!documented.containsKey(name)) {
                problems.add(name + " exists in the code but is not in docs/configuration.md");
            } else if (!documented.get(name).equals(dflt)) {
                problems.add(name + ": the docs say default " + documented.get(name) + ", the code says " + dflt);
            }
        });
        documented.keySet().stream().filter(name -> !actual.containsKey(name))
                .forEach(name -> problems.add(name + " is in docs/configuration.md but no longer in the code"));

        assertThat(problems).as("docs/configuration.md against the @ConfigMapping interfaces; " + REGENERATE).isEmpty();
        assertThat(committed).as("docs/configuration.md's generated section (a description changed?); " + REGENERATE)
                .isEqualTo(rendered);
    }

    @Test
    void everyServiceHasItsPropertiesFound() {
        Map<String, Map<String, String>> byModule = new LinkedHashMap<>();
        reference.modules().forEach(m -> byModule.put(m.module(), defaults(m.properties())));

        assertThat(byModule).containsKeys("run-service", "adapter-lambda-service", "egress-service", "admin-ui");
        assertThat(byModule.get("adapter-lambda-service"))
                .containsEntry("trimus.docker.pids-limit", "`100`")
                .containsEntry("trimus.egress.network.name", "`trimus-egress-allowlist`")
                .containsEntry("trimus.encryption-key", "none")
                .containsEntry("trimus.claude-binary-allowlist", "`claude`");
        assertThat(byModule.get("run-service")).containsEntry("trimus.outbox.batch-size", "`50`");
        assertThat(byModule.get("egress-service")).containsEntry("trimus.egress.dns.addr", "none");
        assertThat(byModule.get("admin-ui")).containsEntry("trimus.run-service-url", "`http://127.0.0.1:8081`");
        assertThat(reference.modules()).filteredOn(m -> m.module().equals("adapter-lambda-service")).singleElement()
                .satisfies(m -> assertThat(m.properties()).filteredOn(p -> p.name().equals("trimus.docker.pids-limit"))
                        .singleElement().satisfies(p -> {
                            assertThat(p.env()).isEqualTo("TRIMUS_DOCKER_PIDS_LIMIT");
                            assertThat(p.description()).startsWith("Process limit per container");
                        }));
    }

    @Test
    void everyPropertyHasAJavadocLine() {
        List<String> undocumented = reference.modules().stream()
                .flatMap(m -> m.properties().stream().filter(p -> p.description().isBlank()).map(p -> m.module() + ": " + p.name()))
                .toList();

        assertThat(undocumented).as("properties without Javadoc (DESIGN.md §9: every property has a Javadoc line)").isEmpty();
    }

    @Test
    void readsNestedInheritedRenamedAndSplitMappings(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path pkg = Files.createDirectories(dir.resolve("io/example/config"));
        Files.writeString(pkg.resolve("AppConfig.java"), """
                package io.example.config;

                import io.smallrye.config.ConfigMapping;
                import io.smallrye.config.WithDefault;
                import io.smallrye.config.WithName;
                import java.util.*;

                /** The app. */
                @ConfigMapping(prefix = "app")
                public interface AppConfig extends Common {
                    /** Process limit, {@code 100} by default. */
                    @WithDefault("100")
                    long pidsLimit();

                    /** Extra options | separated. */
                    Optional<List<String>> securityOpts();

                    /** Renamed. */
                    @WithName("the-url")
                    @WithDefault("http://x:1")
                    java.net.URI url();

                    /** A group declared in another file. */
                    DockerConfig docker();

                    /** Optional group. */
                    Optional<Nested> nested();

                    default String notAProperty() { return "x"; }

                    static AppConfig nothing() { return null; }

                    /** Nested group. */
                    interface Nested {
                        /** Deep, and "quoted". */
                        @WithDefault("a,b")
                        List<String> deepValue();
                    }
                }
                """);
        Files.writeString(pkg.resolve("DockerConfig.java"), """
                package io.example.config;
                // @ConfigMapping(prefix = "ignored") in a comment
                interface DockerConfig {
                    /** Engine. */
                    @io.smallrye.config.WithDefault("unix:///var/run/docker.sock")
                    String host();
                }
                """);
        Files.writeString(pkg.resolve("Common.java"), """
                package io.example.config;
                interface Common {
                    /**
                     * Inherited,
                     * on two lines.
                     * @return the value
                     */
                    @WithDefault("5s") java.time.Duration timeout();
                }
                """);
        List<TypeDecl> types = ConfigurationReference.parseTree(dir);
        List<Property> properties = ConfigurationReference.properties(types, types);

        assertThat(properties).extracting(Property::name).containsExactly("app.docker.host", "app.nested.deep-value",
                "app.pids-limit", "app.security-opts", "app.the-url", "app.timeout");
        assertThat(properties).extracting(Property::renderedDefault).containsExactly("`unix:///var/run/docker.sock`",
                "`a,b`", "`100`", "none", "`http://x:1`", "`5s`");
        assertThat(properties).filteredOn(p -> p.name().equals("app.pids-limit")).singleElement()
                .satisfies(p -> {
                    assertThat(p.env()).isEqualTo("APP_PIDS_LIMIT");
                    assertThat(p.description()).isEqualTo("Process limit, `100` by default.");
                });
        assertThat(properties).filteredOn(p -> p.name().equals("app.timeout")).singleElement()
                .satisfies(p -> assertThat(p.description()).isEqualTo("Inherited, on two lines."));
    }

    @Test
    void readsTheTrimusPlaceholdersOfApplicationProperties() {
        assertThat(ConfigurationReference.placeholders("""
                # ${TRIMUS_COMMENTED:x}
                quarkus.datasource.username=${TRIMUS_DB_USER:postgres}
                kafka.bootstrap.servers=${TRIMUS_KAFKA_BOOTSTRAP:localhost:9092}
                %test.trimus.x=${TRIMUS_TEST_ONLY:1}
                a.b=${TRIMUS_NO_DEFAULT}
                """)).extracting(p -> p.env() + " " + p.property() + " " + p.defaultValue())
                .containsExactly("TRIMUS_DB_USER quarkus.datasource.username postgres",
                        "TRIMUS_KAFKA_BOOTSTRAP kafka.bootstrap.servers localhost:9092",
                        "TRIMUS_NO_DEFAULT a.b null");
    }

    @Test
    void namesFollowSmallRyeConfig() {
        assertThat(ConfigurationReference.name("maxConcurrentRuns", "")).isEqualTo("max-concurrent-runs");
        assertThat(ConfigurationReference.name("serviceURL", "")).isEqualTo("service-url");
        assertThat(ConfigurationReference.name("dnsTTLSeconds", "")).isEqualTo("dns-ttl-seconds");
        assertThat(ConfigurationReference.env("trimus.egress.dns.upstream-max-in-flight"))
                .isEqualTo("TRIMUS_EGRESS_DNS_UPSTREAM_MAX_IN_FLIGHT");
    }

    /** "module property" → rendered default, from the rendered tables (a property may be in several services). */
    private static Map<String, String> defaults(String markdown) {
        Map<String, String> result = new LinkedHashMap<>();
        String module = "";
        for (String line : markdown.split("\n")) {
            if (line.startsWith("### ")) {
                module = line.substring(4).split(" ")[0];
            }
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                result.put(module + " " + m.group(1), m.group(2));
            }
        }
        return result;
    }

    private static Map<String, String> defaults(List<Property> properties) {
        Map<String, String> result = new LinkedHashMap<>();
        Stream.of(properties).flatMap(List::stream).forEach(p -> result.put(p.name(), p.renderedDefault()));
        return result;
    }
}
