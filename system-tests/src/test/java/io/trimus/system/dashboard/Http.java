package io.trimus.system.dashboard;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Plain HTTP to the dashboard as a browser would send it, for tests about credentials: no default Authorization (the
 * RestAssured filter adds the test operator's), no redirects followed, cookies and headers exactly as given.
 */
final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final URI base;
    private final Map<String, String> headers = new LinkedHashMap<>();

    Http(URI base) {
        this.base = base;
    }

    /** A copy that sends {@code name: value} with every request. */
    Http with(String name, String value) {
        Http copy = new Http(base);
        copy.headers.putAll(headers);
        copy.headers.put(name, value);
        return copy;
    }

    /** A copy that presents the session cookie {@code value}. */
    Http withSession(String value) {
        return with("Cookie", "trimus_session=" + value);
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Accept", "text/html").GET());
    }

    HttpResponse<String> post(String path, Map<String, String> form) {
        String body = form.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Accept", "text/html")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Signs in through the dashboard's form and returns the session cookie's value. */
    String signIn(String email, String password) {
        HttpResponse<String> answer = post("/login", Map.of("email", email, "password", password));
        if (answer.statusCode() != 303) {
            throw new IllegalStateException("sign-in answered " + answer.statusCode() + ": " + answer.body());
        }
        return sessionCookie(answer).orElseThrow();
    }

    /** The CSRF token the page's forms carry. */
    static String csrf(HttpResponse<String> page) {
        Matcher m = CSRF.matcher(page.body());
        if (!m.find()) {
            throw new IllegalStateException("no CSRF field on the page: " + page.body());
        }
        return m.group(1);
    }

    /** The Set-Cookie header for trimus_session, whole. */
    static Optional<String> setCookie(HttpResponse<?> answer) {
        return answer.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("trimus_session=")).findFirst();
    }

    static Optional<String> sessionCookie(HttpResponse<?> answer) {
        return setCookie(answer).map(c -> c.substring("trimus_session=".length(), c.indexOf(';')));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        headers.forEach(request::setHeader);
        try {
            return CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
