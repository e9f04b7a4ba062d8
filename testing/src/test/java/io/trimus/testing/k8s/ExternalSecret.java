package io.trimus.testing.k8s;

import java.util.Set;

/**
 * A Secret the manifests reference but deliberately do not contain, because its values must never be in git: who
 * creates it and which keys it has.
 */
public record ExternalSecret(String name, Set<String> keys, String createdBy) {
}
