package io.trimus.testing;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * Makes the test operator ({@link TestOperator}) the default caller of RestAssured in every {@code @QuarkusTest}: the
 * services refuse anonymous calls, and most tests are about something else. A request that carries its own
 * {@code Authorization} (tests about credentials) is left as it is.
 */
public class OperatorCredentialCallback implements QuarkusTestBeforeEachCallback {
    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        if (RestAssured.filters().stream().noneMatch(OperatorByDefault.class::isInstance)) {
            RestAssured.filters(new OperatorByDefault());
        }
    }

    /** Adds the operator's {@code Authorization} to requests without one. */
    static final class OperatorByDefault implements Filter {
        @Override
        public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
                               FilterContext context) {
            if (!request.getHeaders().hasHeaderWithName("Authorization")) {
                request.header("Authorization", TestOperator.HEADER);
            }
            return context.next(request, response);
        }
    }
}
