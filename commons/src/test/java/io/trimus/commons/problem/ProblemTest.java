package io.trimus.commons.problem;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProblemTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void aProblemWithoutFieldOrValueWritesOnlyWhatItHas() throws Exception {
        String body = json.writeValueAsString(ProblemException.notFound("run", "r1").problem());

        assertThat(body).isEqualTo("{\"type\":\"https://trimus.io/problems/not-found\",\"title\":\"Not found\","
                + "\"status\":404,\"detail\":\"run r1 does not exist\"}");
    }

    @Test
    void aRefusedValueIsEchoedShortenedWhenLong() {
        Problem problem = ProblemException.invalidValue("limit", "x".repeat(150), "must be a number").problem();

        assertThat(problem.value()).hasSize(101).endsWith("…");
        assertThat(problem.field()).isEqualTo("limit");
        assertThat(problem.type()).isEqualTo("https://trimus.io/problems/invalid-request");
    }

    @Test
    void aBackendsProblemIsReadEvenWithMembersThisModelDoesNotKnow() throws Exception {
        Problem problem = json.readValue("{\"type\":\"t\",\"title\":\"Conflict\",\"status\":409,"
                + "\"detail\":\"run has finished\",\"instance\":\"/api/runs/1\"}", Problem.class);

        assertThat(problem.status()).isEqualTo(409);
        assertThat(problem.detail()).isEqualTo("run has finished");
    }

    @Test
    void anIdMustBeAWholeUuid() {
        assertThat(Ids.parse("run_id", "0b0f6a4e-3c55-4a8c-9f0e-2a7d1d1f5c10")).isNotNull();
        assertThatThrownBy(() -> Ids.parse("run_id", "1-2-3-4-5"))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.field()).isEqualTo("run_id");
                    assertThat(e.getMessage()).isEqualTo("run_id must be a UUID");
                });
        assertThatThrownBy(() -> Ids.parse("run_id", null)).isInstanceOf(ProblemException.class);
    }

    @Test
    void aPagesIdIsReadByTheSameRuleWithoutAProblem() {
        assertThat(Ids.of("0b0f6a4e-3c55-4a8c-9f0e-2a7d1d1f5c10")).isPresent();
        assertThat(Ids.of("1-2-3-4-5")).isEmpty();
        assertThat(Ids.of("0b0f6a4e-3c55-4a8c-9f0e-2a7d1d1f5cXX")).isEmpty();
        assertThat(Ids.of(null)).isEmpty();
    }
}
