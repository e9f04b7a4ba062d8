package io.trimus.testing;

/**
 * The operator credential of every test stack: each service under test, and each child service a test starts, is
 * given it as TRIMUS_BOOTSTRAP_OPERATOR_TOKEN, and {@link OperatorCredentialCallback} sends it with every RestAssured
 * request of a {@code @QuarkusTest} unless the test sends its own {@code Authorization}. Never used outside tests.
 */
public final class TestOperator {
    /** The bootstrap operator token of test stacks. */
    public static final String TOKEN = "trimus-test-operator-token-7f3c9a1e5b2d4c6f8a0b";
    /** The fixed TRIMUS_ENCRYPTION_KEY of test stacks (run-service's %test profile has the same). */
    public static final String ENCRYPTION_KEY = "0ZYiVA65jN0PbtPYMjzQi2YZYakhmiYwPNuWoLT8Hlo=";
    /** {@code Authorization} header value presenting it. */
    public static final String HEADER = "Bearer " + TOKEN;

    private TestOperator() {
    }
}
