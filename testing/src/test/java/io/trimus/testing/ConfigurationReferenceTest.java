package io.trimus.testing;

import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import io.trimus.testing.ConfigurationReference.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
 * renders from every service's {@code @ConfigMapping} interfaces (read by {@link ConfigMappingScanner}) and
 * application.properties. A property in the code but not on the page, a default that differs, a property the page
 * lists that no longer exists, or a changed Javadoc line fails the build. {@code -Dtrimus.docs.write=true}
 * (scripts/config-docs.sh) rewrites the page instead.
 */
class ConfigurationReferenceTest {

    private static final Path ROOT = ConfigurationReference.locateRoot();
    private static final Path PAGE = ROOT.resolve("docs/configuration.md");
    private static final String REGENERATE = "regenerate it with scripts/config-docs.sh (./mvnw -B -pl testing -am verify "
            + "-Dtest=ConfigurationReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Dtrimus.docs.write=true)";
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z][^`]*)` \\| `[A-Z0-9_]+` \\| (.*?) \\| .* \\|$");

    /** Shared: it keeps the parsed sources, so they are parsed once per run rather than once per test. */
    private static final ConfigurationReference REFERENCE = new ConfigurationReference(ROOT);

    @TempDir
    Path dir;

    @Test
    void theCommittedReferenceIsWhatTheSourcesRender() throws IOException {
        String page = Files.readString(PAGE);
        String rendered = REFERENCE.render();
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
        REFERENCE.modules().forEach(m -> byModule.put(m.module(), defaults(m.properties())));

        assertThat(byModule).containsKeys("run-service", "adapter-lambda-service", "egress-service", "admin-ui");
        assertThat(byModule.get("adapter-lambda-service"))
                .containsEntry("trimus.docker.pids-limit", "`100`")
                .containsEntry("trimus.egress.network.name", "`trimus-egress-allowlist`")
                .containsEntry("trimus.encryption-key", "none")
                .containsEntry("trimus.claude-binary-allowlist", "`claude`");
        assertThat(byModule.get("run-service")).containsEntry("trimus.outbox.batch-size", "`50`");
        assertThat(byModule.get("egress-service")).containsEntry("trimus.egress.dns.addr", "none");
        assertThat(byModule.get("admin-ui")).containsEntry("trimus.run-service-url", "`http://127.0.0.1:8081`");
        assertThat(REFERENCE.modules()).filteredOn(m -> m.module().equals("adapter-lambda-service")).singleElement()
                .satisfies(m -> assertThat(m.properties()).filteredOn(p -> p.name().equals("trimus.docker.pids-limit"))
                        .singleElement().satisfies(p -> {
                            assertThat(p.env()).isEqualTo("TRIMUS_DOCKER_PIDS_LIMIT");
                            assertThat(p.description()).startsWith("Process limit per container");
                        }));
    }

    @Test
    void everyPropertyHasAJavadocLine() {
        List<String> undocumented = REFERENCE.modules().stream()
                .flatMap(m -> m.properties().stream().filter(p -> p.description().isBlank()).map(p -> m.module() + ": " + p.name()))
                .toList();

        assertThat(undocumented).as("properties without Javadoc (DESIGN.md §9: every property has a Javadoc line)").isEmpty();
    }

    @Test
    void readsNestedInheritedRenamedAndSplitMappings() throws IOException {
        List<Property> properties = scan("""
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
                """, """
                package io.example.config;
                // @ConfigMapping(prefix = "ignored") in a comment
                interface DockerConfig {
                    /** Engine. */
                    @io.smallrye.config.WithDefault("unix:///var/run/docker.sock")
                    String host();
                }
                """, """
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
    void withParentNameMapsAGroupOntoItsParentsPrefix() throws IOException {
        assertThat(scan("""
                package io.example.config;
                @io.smallrye.config.ConfigMapping(prefix = "app")
                interface AppConfig {
                    /** Flattened onto app. */
                    @io.smallrye.config.WithParentName
                    Pool pool();

                    /** The pool. */
                    interface Pool {
                        /** Size. */
                        @io.smallrye.config.WithDefault("4")
                        int size();
                    }
                }
                """)).extracting(p -> p.name() + " " + p.renderedDefault()).containsExactly("app.size `4`");
    }

    @Test
    void mapsAndListsOfGroupsGetKeyAndIndexPlaceholders() throws IOException {
        assertThat(scan("""
                package io.example.config;
                import java.util.*;
                @io.smallrye.config.ConfigMapping(prefix = "app")
                interface AppConfig {
                    /** Per tenant. */
                    Map<String, Tenant> tenants();
                    /** Per route. */
                    List<Route> routes();
                    /** Plain list. */
                    List<String> tags();
                    /** A route. */
                    interface Route {
                        /** Path. */
                        String path();
                    }
                }
                """, """
                package io.example.config;
                /** A tenant, in its own file. */
                interface Tenant {
                    /** Quota. */
                    @io.smallrye.config.WithDefault("1" + "0")
                    int quota();
                }
                """)).extracting(p -> p.name() + " " + p.env() + " " + p.renderedDefault()).containsExactly(
                "app.routes[<n>].path APP_ROUTES_N__PATH none", "app.tags APP_TAGS required",
                "app.tenants.<key>.quota APP_TENANTS_KEY_QUOTA `10`");
    }

    @Test
    void aPropertyWithoutJavadocHasABlankDescription() throws IOException {
        List<Property> properties = scan("""
                package io.example.config;
                @io.smallrye.config.ConfigMapping(prefix = "app")
                interface AppConfig {
                    // a line comment is no Javadoc
                    String commented();

                    /* nor is a block comment */
                    String blockCommented();

                    /** @return only a block tag */
                    String tagOnly();

                    String bare();

                    /** Documented, see {@link Other#x the other} and {@linkplain Other}. */
                    String documented();
                }
                """);

        assertThat(properties).extracting(p -> p.name() + ": " + p.description()).containsExactly("app.bare: ",
                "app.block-commented: ", "app.commented: ", "app.documented: Documented, see the other and Other.",
                "app.tag-only: ");
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
        assertThat(ConfigMappingScanner.name("maxConcurrentRuns", "")).isEqualTo("max-concurrent-runs");
        assertThat(ConfigMappingScanner.name("serviceURL", "")).isEqualTo("service-url");
        assertThat(ConfigMappingScanner.name("dnsTTLSeconds", "")).isEqualTo("dns-ttl-seconds");
        assertThat(ConfigMappingScanner.env("trimus.egress.dns.upstream-max-in-flight"))
                .isEqualTo("TRIMUS_EGRESS_DNS_UPSTREAM_MAX_IN_FLIGHT");
    }

    /** The properties {@link ConfigMappingScanner} finds in the given files of package io.example.config. */
    private List<Property> scan(String... units) throws IOException {
        Path pkg = Files.createDirectories(dir.resolve("io/example/config"));
        for (String unit : units) {
            Matcher type = Pattern.compile("(?m)^(?:public )?interface (\\w+)").matcher(unit);
            assertThat(type.find()).as("a top-level interface in %s", unit).isTrue();
            Files.writeString(pkg.resolve(type.group(1) + ".java"), unit);
        }
        List<ClassOrInterfaceDeclaration> interfaces = ConfigMappingScanner.interfaces(dir);
        return ConfigMappingScanner.properties(interfaces, interfaces);
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
