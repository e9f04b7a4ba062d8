package io.trimus.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.Frame;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The busybox test image really builds on the local engine and runs what the adapter tests need. */
class TestImagesTest {
    private static final String CASE_LABEL = "trimus.test.case";
    private static DockerClient docker;
    private final String testCase = UUID.randomUUID().toString();

    @BeforeAll
    static void connect() {
        docker = DockerClients.local();
    }

    @AfterAll
    static void disconnect() throws Exception {
        docker.close();
    }

    @AfterEach
    void removeContainers() {
        Containers.removeByLabel(docker, CASE_LABEL, testCase);
    }

    @Test
    void theBusyboxImageBuildsWithItsLabelAndRunsEcho() throws Exception {
        String image = TestImages.busybox(docker, true);

        assertThat(image).isEqualTo("trimus-test/busybox:latest");
        assertThat(docker.inspectImageCmd(image).exec().getConfig().getLabels()).containsEntry("trimus.test", "true");
        assertThat(run(image, null, "echo", "hi")).isEqualTo("hi\n");
    }

    @Test
    void aSecondCallReusesTheBuiltImage() {
        String first = docker.inspectImageCmd(TestImages.busybox(docker)).exec().getId();
        String second = docker.inspectImageCmd(TestImages.busybox(docker)).exec().getId();
        assertThat(second).isEqualTo(first);
    }

    @Test
    void theAgentUserIsUid1000AndTheSetuidHelperRunsAsRoot() throws Exception {
        String image = TestImages.busybox(docker);

        assertThat(run(image, "agent", "id", "-u")).isEqualTo("1000\n");
        // without no-new-privileges the setuid bit takes effect: the attack the adapter must block
        assertThat(run(image, "agent", "/usr/local/bin/euid")).isEqualTo("0\n");
    }

    @Test
    void removeByLabelRemovesOnlyTheLabelledContainers() {
        String image = TestImages.busybox(docker);
        String other = UUID.randomUUID().toString();
        create(image, testCase, "sleep", "300");
        create(image, testCase, "sleep", "300");
        String bystander = create(image, other, "sleep", "300");
        try {
            assertThat(Containers.findByLabel(docker, CASE_LABEL, testCase)).hasSize(2);
            assertThat(Containers.removeByLabel(docker, CASE_LABEL, testCase)).isEqualTo(2);
            assertThat(Containers.findByLabel(docker, CASE_LABEL, testCase)).isEmpty();
            assertThat(Containers.findByLabel(docker, CASE_LABEL, other)).extracting(c -> c.getId())
                    .containsExactly(bystander);
        } finally {
            Containers.removeByLabel(docker, CASE_LABEL, other);
        }
    }

    private String run(String image, String user, String... command) throws InterruptedException {
        CreateContainerCmd create = docker.createContainerCmd(image).withCmd(command)
                .withLabels(Map.of(CASE_LABEL, testCase));
        if (user != null) {
            create.withUser(user);
        }
        String id = create.exec().getId();
        docker.startContainerCmd(id).exec();
        int exit = docker.waitContainerCmd(id).start().awaitStatusCode(60, TimeUnit.SECONDS);
        StringBuilder output = new StringBuilder();
        docker.logContainerCmd(id).withStdOut(true).withStdErr(true)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        output.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                    }
                })
                .awaitCompletion(30, TimeUnit.SECONDS);
        assertThat(exit).as("exit code of %s, output %s", String.join(" ", command), output).isZero();
        return output.toString();
    }

    private String create(String image, String caseLabel, String... command) {
        return docker.createContainerCmd(image).withCmd(command).withLabels(Map.of(CASE_LABEL, caseLabel))
                .exec().getId();
    }
}
