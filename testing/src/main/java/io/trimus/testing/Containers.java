package io.trimus.testing;

import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;

/** Finds and removes containers by label: nothing reaps test containers here (no Ryuk), so tests clean by label. */
public final class Containers {
    private Containers() {
    }

    /** Containers, running or not, carrying {@code label=value} (e.g. {@code trimus.run_id}, {@code trimus.test}). */
    public static List<Container> findByLabel(DockerClient docker, String label, String value) {
        return docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(label, value))
                .exec();
    }

    /** Force-removes (kills if needed) every container carrying {@code label=value}; returns how many went. */
    public static int removeByLabel(DockerClient docker, String label, String value) {
        int removed = 0;
        for (Container container : findByLabel(docker, label, value)) {
            try {
                docker.removeContainerCmd(container.getId()).withForce(true).withRemoveVolumes(true).exec();
                removed++;
            } catch (NotFoundException | ConflictException e) {
                // gone meanwhile, or its removal is already in progress (the adapter's own cleanup): goal reached
            }
        }
        return removed;
    }
}
