package io.trimus.adapter.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.events.CanaryRequested;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Containers labelled with a run that no worker of this process watches: left by a previous process of
 * the service (crash, kill -9). Nobody would ever report their result or enforce their timeout, so they are
 * removed, their sandbox addresses deregistered from egress-service and their runs ended.
 */
@ApplicationScoped
public class OrphanContainers {

    private static final Logger LOG = Logger.getLogger(OrphanContainers.class);

    private final DockerClient docker;
    private final String instance;
    private final SandboxAttachment attachment;
    private final ProbeRunner probes;

    @Inject
    public OrphanContainers(DockerClient docker, TrimusConfig config, SandboxAttachment attachment,
                            ProbeRunner probes) {
        String instance = DockerDefaults.instanceOf(config.docker());
        this.docker = docker;
        this.instance = instance;
        this.attachment = attachment;
        this.probes = probes;
    }

    /**
     * Removes every container of this instance labelled {@code trimus.run_id} whose run is not {@code held}; a
     * container without an instance label (made before instances existed) counts as the default instance's. A probe's
     * container (an egress canary's, agent {@link CanaryRequested#PROBE_AGENT_ID}) is removed and deregistered too
     * unless a probe of this process holds it, but it is no run: it is never among the runs returned.
     *
     * @return the runs whose containers were removed
     */
    public List<OrphanRun> reap(Predicate<UUID> held) {
        List<OrphanRun> ended = new ArrayList<>();
        List<Container> containers = docker.listContainersCmd().withShowAll(true)
                .withLabelFilter(List.of(ContainerPolicy.LABEL_RUN)).exec();
        for (Container container : containers) {
            Map<String, String> labels = container.getLabels() == null ? Map.of() : container.getLabels();
            UUID runId = uuid(labels.get(ContainerPolicy.LABEL_RUN));
            String owner = labels.getOrDefault(ContainerPolicy.LABEL_INSTANCE, DockerDefaults.DEFAULT_INSTANCE);
            boolean probe = CanaryRequested.isProbe(uuid(labels.get(ContainerPolicy.LABEL_AGENT)));
            if (runId == null || !owner.equals(instance) || (probe ? probes.holds(runId) : held.test(runId))) {
                continue;
            }
            try {
                docker.removeContainerCmd(container.getId()).withForce(true).withRemoveVolumes(true).exec();
            } catch (NotFoundException gone) {
                // removed meanwhile
            }
            LOG.infof("removed container %s of %s %s left by a previous adapter process", container.getId(),
                    probe ? "canary" : "run", runId);
            attachment.detachLeftover(runId, container);
            if (probe) {
                continue;
            }
            ended.add(new OrphanRun(runId, uuid(labels.get(ContainerPolicy.LABEL_COMPANY)),
                    uuid(labels.get(ContainerPolicy.LABEL_AGENT))));
        }
        return ended;
    }

    private static UUID uuid(String text) {
        try {
            return text == null ? null : UUID.fromString(text);
        } catch (IllegalArgumentException notOurs) {
            return null;
        }
    }
}
