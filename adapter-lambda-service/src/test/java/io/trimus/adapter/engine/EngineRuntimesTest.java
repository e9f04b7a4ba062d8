package io.trimus.adapter.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EngineRuntimesTest {

    /** The Runtimes of a Docker 20.10 engine's GET /info, gVisor registered in several ways. */
    private static final String INFO = """
            {"ID":"x","Runtimes":{
              "runc":{"path":"runc"},
              "io.containerd.runc.v2":{"path":"runc"},
              "runsc":{"path":"/usr/bin/runsc","runtimeArgs":["--platform=ptrace","--network=host"]},
              "gvisor-lax":{"path":"/usr/local/lib/gvisor/runsc","runtimeArgs":["--network=host"]},
              "kata":{"path":"/usr/bin/kata-runtime"},
              "gvisor-netstack":{"path":"/usr/bin/runsc","runtimeArgs":["--oci-seccomp"]},
              "gvisor-nat":{"path":"/usr/bin/runsc","runtimeArgs":["--network=sandbox","--reproduce-nat","--oci-seccomp"]}},
             "DefaultRuntime":"runc"}""";

    @Test
    void aRegisteredRuntimeIsFineAndAMissingOneIsRefusedNamingWhatTheEngineHas() throws Exception {
        Map<String, EngineRuntimes.Registered> registered = EngineRuntimes.parse(new ObjectMapper().readTree(INFO));
        assertThat(registered.get("runsc").args()).containsExactly("--platform=ptrace", "--network=host");
        assertThat(registered.get("runsc").gvisor()).isTrue();
        assertThat(registered.get("runc").gvisor()).isFalse();

        assertThat(EngineRuntimes.refusal(registered, "runc")).isEmpty();
        assertThat(EngineRuntimes.refusal(registered, "runsc")).isEmpty();
        assertThat(EngineRuntimes.refusal(registered, "kata")).isEmpty();
        assertThat(registered.get("gvisor-lax").gvisor()).as("told by its path").isTrue();
        assertThat(EngineRuntimes.refusal(registered, "youki")).hasValueSatisfying(why -> assertThat(why)
                .startsWith("runtime youki is allowed by TRIMUS_DOCKER_RUNTIMES but not registered with the Docker"
                        + " engine (registered: runc, io.containerd.runc.v2, runsc, gvisor-lax, kata, gvisor-netstack,"
                        + " gvisor-nat)"));
    }

    /**
     * On gVisor's own network stack a sandbox's 127.0.0.11 is its own loopback, not Docker's embedded DNS (measured
     * with Debian 12's runsc: "write to '127.0.0.11': Connection refused"), so it could reach no resolver at all:
     * refused, unless runsc copies Docker's NAT rule in (--reproduce-nat) or runs on the host's stack.
     */
    @Test
    void gvisorOnItsOwnNetworkStackWithoutReproduceNatIsRefusedItsSandboxesCouldNotResolve() throws Exception {
        Map<String, EngineRuntimes.Registered> registered = EngineRuntimes.parse(new ObjectMapper().readTree(INFO));

        assertThat(EngineRuntimes.refusal(registered, "gvisor-netstack")).hasValueSatisfying(why -> assertThat(why)
                .startsWith("runtime gvisor-netstack is gVisor on its own network stack without --reproduce-nat: its"
                        + " sandboxes could not reach Docker's embedded DNS"));
        assertThat(EngineRuntimes.refusal(registered, "gvisor-nat")).isEmpty();
        assertThat(EngineRuntimes.reachesEmbeddedDns(java.util.List.of("--network=none"))).isFalse();
        assertThat(EngineRuntimes.reachesEmbeddedDns(java.util.List.of("--network=host"))).isTrue();
    }
}
