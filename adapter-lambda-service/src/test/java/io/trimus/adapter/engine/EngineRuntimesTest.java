package io.trimus.adapter.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EngineRuntimesTest {

    /** The Runtimes of a Docker 20.10 engine's GET /info, gVisor registered twice: with and without --oci-seccomp. */
    private static final String INFO = """
            {"ID":"x","Runtimes":{
              "runc":{"path":"runc"},
              "io.containerd.runc.v2":{"path":"runc"},
              "runsc":{"path":"/usr/bin/runsc","runtimeArgs":["--platform=ptrace","--oci-seccomp"]},
              "gvisor-lax":{"path":"/usr/local/lib/trimus/runsc-netstack","runtimeArgs":["--network=sandbox"]}},
             "DefaultRuntime":"runc"}""";

    @Test
    void aRegisteredRuntimeIsFineAndAMissingOneIsRefusedNamingWhatTheEngineHas() throws Exception {
        Map<String, EngineRuntimes.Registered> registered = EngineRuntimes.parse(new ObjectMapper().readTree(INFO));
        assertThat(registered.get("runsc").args()).containsExactly("--platform=ptrace", "--oci-seccomp");
        assertThat(registered.get("runsc").gvisor()).isTrue();
        assertThat(registered.get("runc").gvisor()).isFalse();

        assertThat(EngineRuntimes.refusal(registered, "runc")).isEmpty();
        assertThat(EngineRuntimes.refusal(registered, "runsc")).isEmpty();
        assertThat(EngineRuntimes.refusal(registered, "kata")).hasValueSatisfying(why -> assertThat(why)
                .startsWith("runtime kata is allowed by TRIMUS_DOCKER_RUNTIMES but not registered with the Docker engine"
                        + " (registered: runc, io.containerd.runc.v2, runsc, gvisor-lax)"));
    }

    @Test
    void gvisorWithoutOciSeccompIsRefusedItWouldDropTheSeccompProfile() throws Exception {
        Map<String, EngineRuntimes.Registered> registered = EngineRuntimes.parse(new ObjectMapper().readTree(INFO));
        assertThat(registered.get("gvisor-lax").gvisor()).as("told by its path").isTrue();
        assertThat(EngineRuntimes.refusal(registered, "gvisor-lax")).hasValue("runtime gvisor-lax is gVisor registered"
                + " without --oci-seccomp: it would ignore the sandbox's seccomp profile; the operator adds"
                + " --oci-seccomp to its runtimeArgs in the engine's daemon.json");
    }
}
