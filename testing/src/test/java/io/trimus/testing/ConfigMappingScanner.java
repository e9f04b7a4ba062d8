package io.trimus.testing;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ParserConfiguration.LanguageLevel;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.PackageDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import com.github.javaparser.ast.type.Type;
import com.github.javaparser.javadoc.description.JavadocDescriptionElement;
import com.github.javaparser.javadoc.description.JavadocInlineTag;
import io.trimus.testing.ConfigurationReference.Property;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Sources → properties: finds the {@code @ConfigMapping} interfaces of Java source trees with JavaParser (the
 * services' classes are not on this module's classpath) and lists the properties they map: nested, inherited and
 * separate-file group interfaces followed; {@code @WithName}, {@code @WithParentName}, {@code @WithDefault},
 * {@code Optional}, maps and lists of groups understood; the Javadoc's description is the property's.
 */
final class ConfigMappingScanner {

    private static final JavaParser PARSER =
            new JavaParser(new ParserConfiguration().setLanguageLevel(LanguageLevel.JAVA_17));

    private final List<ClassOrInterfaceDeclaration> index;
    private final String naming;
    private final Map<String, Property> found;
    private final Set<String> visiting = new HashSet<>();

    private ConfigMappingScanner(List<ClassOrInterfaceDeclaration> index, String naming, Map<String, Property> found) {
        this.index = index;
        this.naming = naming;
        this.found = found;
    }

    /** Every interface declared in the .java files under {@code dir}, nested ones included, local ones not. */
    static List<ClassOrInterfaceDeclaration> interfaces(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().map(ConfigMappingScanner::parse)
                    .flatMap(unit -> unit.findAll(ClassOrInterfaceDeclaration.class,
                            t -> t.isInterface() && t.getFullyQualifiedName().isPresent()).stream())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CompilationUnit parse(Path file) {
        try {
            ParseResult<CompilationUnit> result = PARSER.parse(file);
            return result.getResult().filter(unit -> result.isSuccessful())
                    .orElseThrow(() -> new IllegalStateException(file + ": " + result.getProblems()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The properties of the {@code @ConfigMapping} interfaces among {@code roots}, by name; groups from {@code index}. */
    static List<Property> properties(List<ClassOrInterfaceDeclaration> roots, List<ClassOrInterfaceDeclaration> index) {
        Map<String, Property> result = new LinkedHashMap<>();
        for (ClassOrInterfaceDeclaration root : roots) {
            annotation(root, "ConfigMapping").ifPresent(mapping -> new ConfigMappingScanner(index,
                    mapping.toString(), result).collect(root, value(mapping, "prefix").orElse(""), false));
        }
        return result.values().stream().sorted(Comparator.comparing(Property::name)).toList();
    }

    /** Adds the properties of {@code type} (its super-interfaces' first) under {@code prefix}, following groups. */
    private void collect(ClassOrInterfaceDeclaration type, String prefix, boolean optionalGroup) {
        String key = type.getFullyQualifiedName().orElseThrow() + "@" + prefix;
        if (!visiting.add(key)) {
            return;
        }
        type.getExtendedTypes().forEach(superType -> resolve(superType.getNameAsString(), type)
                .ifPresent(s -> collect(s, prefix, optionalGroup)));
        for (MethodDeclaration method : type.getMethods()) {
            if (!method.getParameters().isEmpty() || method.getBody().isPresent() || method.isStatic()) {
                continue;
            }
            String segment = annotation(method, "WithName").flatMap(a -> value(a, "value"))
                    .orElseGet(() -> name(method.getNameAsString(), naming));
            String name = annotation(method, "WithParentName").isPresent() ? prefix : join(prefix, segment);
            Type value = method.getType();
            boolean optionalValue = is(value, "Optional", 1);
            boolean optional = optionalGroup || optionalValue;
            value = optionalValue ? arguments(value).get(0) : value;
            String suffix = "";
            if (is(value, "Map", 2) || is(value, "SortedMap", 2)) {
                suffix = ".<key>";
                value = arguments(value).get(1);
            } else if ((is(value, "List", 1) || is(value, "Set", 1))
                       && resolve(simpleName(arguments(value).get(0)), type).isPresent()) {
                suffix = "[<n>]";
                value = arguments(value).get(0);
            }
            Optional<ClassOrInterfaceDeclaration> group = resolve(simpleName(value), type);
            if (group.isPresent()) {
                collect(group.get(), name + suffix, optional || !suffix.isEmpty());
            } else {
                String fullName = name + suffix;
                String defaultValue = annotation(method, "WithDefault").flatMap(a -> value(a, "value")).orElse(null);
                found.putIfAbsent(fullName, new Property(fullName, env(fullName), defaultValue,
                        optional || !suffix.isEmpty(), description(method)));
            }
        }
        visiting.remove(key);
    }

    /** The interface a simple name means in {@code context}: a member of it or its outers, its package's, else unique. */
    private Optional<ClassOrInterfaceDeclaration> resolve(String simpleName, ClassOrInterfaceDeclaration context) {
        List<ClassOrInterfaceDeclaration> candidates =
                index.stream().filter(t -> t.getNameAsString().equals(simpleName)).toList();
        String pkg = packageOf(context);
        for (String scope = context.getFullyQualifiedName().orElseThrow(); ; scope = outer(scope)) {
            String wanted = scope.isEmpty() ? simpleName : scope + "." + simpleName;
            Optional<ClassOrInterfaceDeclaration> hit = candidates.stream()
                    .filter(t -> t.getFullyQualifiedName().orElseThrow().equals(wanted)).findFirst();
            if (hit.isPresent() || scope.length() <= pkg.length()) {
                return hit.or(() -> candidates.stream().filter(t -> packageOf(t).equals(pkg)).findFirst())
                        .or(() -> candidates.size() == 1 ? Optional.of(candidates.get(0)) : Optional.empty());
            }
        }
    }

    private static String outer(String qualifiedName) {
        return qualifiedName.substring(0, Math.max(0, qualifiedName.lastIndexOf('.')));
    }

    private static String packageOf(ClassOrInterfaceDeclaration type) {
        return type.findCompilationUnit().flatMap(CompilationUnit::getPackageDeclaration)
                .map(PackageDeclaration::getNameAsString).orElse("");
    }

    private static boolean is(Type type, String simpleName, int arguments) {
        return simpleName(type).equals(simpleName) && arguments(type).size() == arguments;
    }

    private static String simpleName(Type type) {
        return type.isClassOrInterfaceType() ? type.asClassOrInterfaceType().getNameAsString() : type.asString();
    }

    private static List<Type> arguments(Type type) {
        return type.isClassOrInterfaceType()
                ? type.asClassOrInterfaceType().getTypeArguments().map(List::copyOf).orElse(List.of()) : List.of();
    }

    private static Optional<AnnotationExpr> annotation(NodeWithAnnotations<?> node, String simpleName) {
        return node.getAnnotations().stream().filter(a -> a.getName().getIdentifier().equals(simpleName)).findFirst();
    }

    /** A string member of an annotation ({@code value} may be the single unnamed one), concatenated literals joined. */
    private static Optional<String> value(AnnotationExpr annotation, String member) {
        Optional<Expression> expression = Optional.empty();
        if (annotation instanceof SingleMemberAnnotationExpr single && member.equals("value")) {
            expression = Optional.of(single.getMemberValue());
        } else if (annotation instanceof NormalAnnotationExpr normal) {
            expression = normal.getPairs().stream().filter(p -> p.getNameAsString().equals(member))
                    .map(MemberValuePair::getValue).findFirst();
        }
        return expression.map(e -> e.findAll(StringLiteralExpr.class).stream().map(StringLiteralExpr::asString)
                .collect(Collectors.joining()));
    }

    private static String join(String prefix, String segment) {
        return prefix.isEmpty() ? segment : segment.isEmpty() ? prefix : prefix + "." + segment;
    }

    /** SmallRye's naming of a method: kebab-case by default, or as the mapping's namingStrategy says. */
    static String name(String method, String namingStrategy) {
        if (namingStrategy.contains("VERBATIM")) {
            return method;
        }
        String separator = namingStrategy.contains("SNAKE_CASE") ? "_" : "-";
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < method.length(); i++) {
            char c = method.charAt(i);
            if (Character.isUpperCase(c) && i > 0) {
                boolean nextLower = i + 1 < method.length() && Character.isLowerCase(method.charAt(i + 1));
                if (!Character.isUpperCase(method.charAt(i - 1)) || nextLower) {
                    out.append(separator);
                }
            }
            out.append(Character.toLowerCase(c));
        }
        return out.toString();
    }

    /** The environment variable of a property, as SmallRye Config maps it: every character but [A-Za-z0-9] becomes _. */
    static String env(String property) {
        return property.replace("<key>", "KEY").replace("[<n>]", "_N_").replaceAll("[^A-Za-z0-9]", "_")
                .toUpperCase(Locale.ROOT);
    }

    /** The method's Javadoc description as one markdown line, inline tags rendered; "" without Javadoc. */
    static String description(MethodDeclaration method) {
        return method.getJavadoc().map(javadoc -> javadoc.getDescription().getElements().stream()
                        .map(ConfigMappingScanner::markdown).collect(Collectors.joining())
                        .replaceAll("</?(?:p|b|i|em|strong|ul|ol|li|br)\\s*/?>", " ").replaceAll("\\s+", " ").strip())
                .orElse("");
    }

    private static String markdown(JavadocDescriptionElement element) {
        if (!(element instanceof JavadocInlineTag tag) || tag.getContent().isBlank()) {
            return element.toText();
        }
        String content = tag.getContent().stripLeading();
        String[] referenceAndLabel = content.split("\\s+", 2);
        return switch (tag.getType()) {
            case CODE, LITERAL -> "`" + content + "`";
            case LINK, LINKPLAIN -> referenceAndLabel.length > 1 && !referenceAndLabel[1].isBlank()
                    ? referenceAndLabel[1] : referenceAndLabel[0];
            case VALUE -> referenceAndLabel[0];
            default -> tag.toText();
        };
    }
}
