package io.trimus.testing.k8s;

/** One kind of check over a set of manifests; it reports into {@link Problems} and never throws for a finding. */
public interface ManifestCheck {

    /** Adds a problem for everything this check finds wrong in {@code manifests}. */
    void check(Manifests manifests, Problems problems);
}
