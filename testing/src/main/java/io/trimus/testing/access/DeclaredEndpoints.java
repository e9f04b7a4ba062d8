package io.trimus.testing.access;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JAX-RS endpoints a service's compiled classes declare, each with the level of its {@code @Allowed} (method, else
 * class; {@code none} when there is none), found by reflection so a new endpoint cannot be missed.
 */
public final class DeclaredEndpoints {
    private static final String ALLOWED = "io.trimus.commons.access.Allowed";

    private DeclaredEndpoints() {
    }

    /** Every endpoint of the classes under {@code target/classes} of the module the tests run in. */
    public static List<Endpoint> scan(ClassLoader loader) {
        Path classes = Path.of("target/classes").toAbsolutePath();
        List<Endpoint> endpoints = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = Class.forName(name, false, loader);
                jakarta.ws.rs.Path base = type.getAnnotation(jakarta.ws.rs.Path.class);
                if (base != null && !type.isInterface()) {
                    endpoints.addAll(of(type, base.value()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return endpoints;
    }

    private static List<Endpoint> of(Class<?> type, String base) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (Method method : type.getDeclaredMethods()) {
            String verb = httpMethod(method);
            if (verb == null) {
                continue;
            }
            jakarta.ws.rs.Path sub = method.getAnnotation(jakarta.ws.rs.Path.class);
            String path = join(base, sub == null ? "" : sub.value());
            endpoints.add(new Endpoint(verb, path, level(method, type)));
        }
        return endpoints;
    }

    private static String httpMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            jakarta.ws.rs.HttpMethod verb = annotation.annotationType().getAnnotation(jakarta.ws.rs.HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }

    private static String level(Method method, Class<?> type) {
        Annotation allowed = allowed(method.getAnnotations());
        if (allowed == null) {
            allowed = allowed(type.getAnnotations());
        }
        if (allowed == null) {
            return "none";
        }
        try {
            Object access = allowed.annotationType().getMethod("value").invoke(allowed);
            return (String) access.getClass().getMethod("label").invoke(access);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Annotation allowed(Annotation[] annotations) {
        for (Annotation annotation : annotations) {
            if (annotation.annotationType().getName().equals(ALLOWED)) {
                return annotation;
            }
        }
        return null;
    }

    static String join(String base, String sub) {
        String joined = ("/" + base + "/" + sub).replaceAll("/+", "/");
        return joined.length() > 1 && joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }
}
