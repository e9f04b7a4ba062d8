package io.trimus.adapter.lambda;

import io.trimus.events.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** What each answer of an endpoint means for the run: only the documented 2xx shape can succeed. */
class LambdaContractTest {

    @Test
    void aSucceededAnswerWithoutOutputOrExitCodeSucceeds() {
        LambdaContract.Outcome outcome = LambdaContract.answer(200, bytes("{\"status\":\"succeeded\"}"));

        assertThat(outcome).isEqualTo(new LambdaContract.Outcome(RunState.SUCCEEDED, null, null, null));
    }

    @Test
    void anyTwoHundredStatusCarriesTheContract() {
        assertThat(LambdaContract.answer(202, bytes("{\"status\":\"succeeded\",\"output\":null,\"exit_code\":null}"))
                .state()).isEqualTo(RunState.SUCCEEDED);
    }

    @ParameterizedTest(name = "{0} {1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            200 | ''                                                | endpoint answered HTTP 200 without a body
            204 | ''                                                | endpoint answered HTTP 204 without a body
            200 | not json                                          | endpoint answered HTTP 200 with a body that is not JSON
            200 | [1, 2]                                            | endpoint answered HTTP 200 with JSON that is not an object
            200 | "succeeded"                                       | endpoint answered HTTP 200 with JSON that is not an object
            200 | {}                                                | endpoint answered HTTP 200 without status
            200 | {"status": "SUCCEEDED"}                           | endpoint answered HTTP 200 without status
            200 | {"status": true}                                  | endpoint answered HTTP 200 without status
            200 | {"status": "succeeded", "output": {"a": 1}}       | endpoint answered with an output that is not a string
            200 | {"status": "succeeded", "exit_code": "0"}         | endpoint answered with an exit_code that is not an integer
            200 | {"status": "succeeded", "exit_code": 1.5}         | endpoint answered with an exit_code that is not an integer
            200 | {"status": "succeeded", "exit_code": 99999999999} | endpoint answered with an exit_code that is not an integer
            301 | ''                                                | endpoint answered HTTP 301; redirects are not followed
            404 | {"status": "succeeded"}                           | endpoint answered HTTP 404
            503 | ''                                                | endpoint answered HTTP 503
            """)
    void everythingElseFailsSayingWhatWasWrong(int status, String body, String reason) {
        LambdaContract.Outcome outcome = LambdaContract.answer(status, bytes(body));

        assertThat(outcome.state()).isEqualTo(RunState.FAILED);
        assertThat(outcome.error()).startsWith(reason);
    }

    @Test
    void aFailedAnswerWithoutExitCodeSaysSo() {
        LambdaContract.Outcome outcome = LambdaContract.answer(200, bytes("{\"status\":\"failed\",\"output\":\"x\"}"));

        assertThat(outcome).isEqualTo(new LambdaContract.Outcome(RunState.FAILED, null, "x",
                "the endpoint reported the run failed"));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
