package io.trimus.system.dashboard;

import java.net.URI;
import java.util.Map;

/**
 * Built-in accounts for the tests, made through run-service's API by the test operator: a person given a role in a
 * company (run-service answers with the setup link), and its first password set through that link.
 */
final class Accounts {
    static final String PASSWORD = "correct horse battery staple";

    private Accounts() {
    }

    /** A new person with {@code role} in {@code company}; returns its email. The setup link is used at once. */
    static String withPassword(String company, String role) {
        String email = newEmail();
        setPassword(setupLink(company, email, role), PASSWORD);
        return email;
    }

    /** Gives a new account {@code role} in {@code company} and returns run-service's one-time setup link. */
    static URI setupLink(String company, String email, String role) {
        String url = Stack.runService().body(Map.of("role", role))
                .put("/api/companies/{c}/members/{e}", company, email).then().statusCode(200)
                .extract().path("setup_url");
        return URI.create(url);
    }

    static void setPassword(URI setupLink, String password) {
        Stack.runService().body(Map.of("token", setupLink.getFragment(), "password", password))
                .post("/api/setup").then().statusCode(200);
    }

    static String newEmail() {
        return "person-" + java.util.UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }
}
