package io.trimus.testing.k8s;

import java.util.ArrayList;
import java.util.List;

/** What the checks found, one sentence each, prefixed by the file and the resource it is about. */
public final class Problems {

    private final List<String> found = new ArrayList<>();

    /** A problem of one resource: {@code base/run-service.yaml: Deployment/run-service: <message>}. */
    public void add(Manifest where, String message) {
        found.add(where.source() + ": " + where.id() + ": " + message);
    }

    /** A problem of a file rather than of one resource (a kustomization, a file nobody lists). */
    public void add(String file, String message) {
        found.add(file + ": " + message);
    }

    /** Everything found so far, in the order found. */
    public List<String> list() {
        return List.copyOf(found);
    }
}
