package io.trimus.adapter.engine;

import io.trimus.adapter.container.EngineRequirement;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.adapter.AdapterType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DockerEngineSwitchTest {

    @Test
    void withoutAnEngineAContainerRunIsRefusedNamingTheSwitchAndTheWayOut() {
        DockerEngineSwitch off = Wiring.engine(false);

        assertThat(off.enabled()).isFalse();
        for (AdapterType type : new AdapterType[] {AdapterType.DOCKER, AdapterType.CLAUDE_SANDBOX,
                AdapterType.CODEX_SANDBOX}) {
            assertThatThrownBy(() -> EngineRequirement.require(off, type))
                    .isInstanceOf(RunRejected.class)
                    .hasMessageStartingWith(type.wireName() + " runs need a Docker engine")
                    .hasMessageContaining("TRIMUS_DOCKER_ENABLED=false")
                    .hasMessageContaining("remote adapter");
        }
    }

    @Test
    void withAnEngineNothingIsRefused() {
        DockerEngineSwitch on = Wiring.engine(true);

        assertThat(on.enabled()).isTrue();
        assertThatCode(() -> EngineRequirement.require(on, AdapterType.DOCKER)).doesNotThrowAnyException();
    }
}
