package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Fields the fabric8 model does not know. Its classes never fail on an unknown field (FAIL_ON_UNKNOWN_PROPERTIES
 * has no effect on their any-setter): they keep it in {@code additionalProperties}. So a misspelled field
 * ({@code replcas}) parses and Kubernetes would drop or refuse it later; this walks the parsed object graph with
 * Jackson's own view of each class and reports every field that landed there, by its path.
 */
public final class UnknownFields {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL_PACKAGE = "io.fabric8.";

    private UnknownFields() {
    }

    /** Paths of unknown fields, e.g. {@code spec.template.spec.containers[0].imagePullPolcy}. A custom resource's
     * content is not in the model, so only its metadata is walked. */
    public static List<String> in(KubernetesResource resource) {
        List<String> found = new ArrayList<>();
        if (resource instanceof GenericKubernetesResource generic) {
            walk(generic.getMetadata(), "metadata", found);
        } else {
            walk(resource, "", found);
        }
        return found;
    }

    private static void walk(Object value, String path, List<String> found) {
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                walk(item, path + "[" + i++ + "]", found);
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((key, item) -> walk(item, join(path, String.valueOf(key)), found));
        } else if (value != null && value.getClass().getName().startsWith(MODEL_PACKAGE)) {
            BeanDescription bean = JSON.getSerializationConfig().introspect(JSON.constructType(value.getClass()));
            AnnotatedMember anyGetter = bean.findAnyGetter();
            if (anyGetter != null && anyGetter.getValue(value) instanceof Map<?, ?> extra) {
                extra.keySet().forEach(key -> found.add(join(path, String.valueOf(key))));
            }
            for (BeanPropertyDefinition property : bean.findProperties()) {
                AnnotatedMember accessor = property.getAccessor();
                if (accessor != null) {
                    walk(accessor.getValue(value), join(path, property.getName()), found);
                }
            }
        }
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
