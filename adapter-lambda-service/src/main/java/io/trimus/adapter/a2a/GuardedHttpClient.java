package io.trimus.adapter.a2a;

import io.a2a.client.http.A2AHttpClient;
import io.a2a.client.http.A2AHttpResponse;
import io.trimus.events.adapter.A2aPeerConfig;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The A2A SDK's HTTP client for one run, with the lambda adapter's guard: every request dials the address judged for
 * the peer (the Host header and the TLS name stay the URL's host), goes only to the configured peer's scheme, host and
 * port (a card naming another url is never called), follows no redirect, and reads the answer as a stream cut off past
 * TRIMUS_A2A_MAX_RESPONSE_BYTES (an event stream: per event, and TRIMUS_A2A_MAX_STREAM_BYTES in all). Its interface is
 * blocking: it is called on the run's own thread, and each call waits at most until the run's deadline.
 */
final class GuardedHttpClient implements A2AHttpClient {
    private final HttpClient client;
    private final PeerSession session;
    private final int maxResponseBytes;
    private final long maxStreamBytes;

    GuardedHttpClient(HttpClient client, PeerSession session, int maxResponseBytes, long maxStreamBytes) {
        this.client = client;
        this.session = session;
        this.maxResponseBytes = maxResponseBytes;
        this.maxStreamBytes = maxStreamBytes;
    }

    @Override
    public GetBuilder createGet() {
        return new Get();
    }

    @Override
    public PostBuilder createPost() {
        return new Post();
    }

    @Override
    public DeleteBuilder createDelete() {
        return new Delete();
    }

    private A2AHttpResponse exchange(HttpMethod method, String url, MultiMap headers, String body)
            throws IOException, InterruptedException {
        RequestOptions options = options(method, url, headers);
        CompletableFuture<A2AHttpResponse> answer = new CompletableFuture<>();
        CompletableFuture<HttpClientRequest> sent = new CompletableFuture<>();
        client.request(options).onComplete(connected -> {
            if (connected.failed()) {
                answer.completeExceptionally(connected.cause());
                return;
            }
            HttpClientRequest request = connected.result();
            sent.complete(request);
            if (!session.track(request)) {
                request.reset();
                answer.completeExceptionally(new IOException("the exchange with the peer was stopped"));
                return;
            }
            request.send(body == null ? Buffer.buffer() : Buffer.buffer(body)).onComplete(answered -> {
                if (answered.failed()) {
                    answer.completeExceptionally(answered.cause());
                } else {
                    read(request, answered.result(), answer);
                }
            });
        });
        try {
            return await(answer);
        } finally {
            HttpClientRequest request = sent.getNow(null);
            if (request != null) {
                session.untrack(request);
                if (!answer.isDone() || answer.isCompletedExceptionally()) {
                    request.reset();
                }
            }
        }
    }

    private void read(HttpClientRequest request, HttpClientResponse response, CompletableFuture<A2AHttpResponse> answer) {
        response.exceptionHandler(answer::completeExceptionally);
        int status = response.statusCode();
        session.status(status);
        if (refusedRedirect(request, response) || refusedLength(request, response)) {
            answer.completeExceptionally(new IOException(session.refusal()));
            return;
        }
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (answer.isDone()) {
                return;
            }
            if ((long) body.length() + chunk.length() > maxResponseBytes) {
                session.refuse(tooLarge());
                request.reset();
                answer.completeExceptionally(new IOException(tooLarge()));
            } else {
                body.appendBuffer(chunk);
            }
        });
        response.endHandler(v -> answer.complete(new Response(status, body.toString(StandardCharsets.UTF_8))));
    }

    private CompletableFuture<Void> stream(String url, MultiMap headers, String body, Consumer<String> events,
                                           Consumer<Throwable> errors, Runnable completed) throws IOException {
        headers.set("Accept", "text/event-stream");
        RequestOptions options = options(HttpMethod.POST, url, headers);
        CompletableFuture<Void> open = new CompletableFuture<>();
        client.request(options).onComplete(connected -> {
            if (connected.failed()) {
                failStream(open, errors, connected.cause());
                return;
            }
            HttpClientRequest request = connected.result();
            // the SDK cancels the future to close the stream (after a final event, or on an error)
            open.whenComplete((v, e) -> {
                session.untrack(request);
                request.reset();
            });
            if (!session.track(request)) {
                failStream(open, errors, new IOException("the exchange with the peer was stopped"));
                return;
            }
            request.send(Buffer.buffer(body == null ? "" : body)).onComplete(answered -> {
                if (answered.failed()) {
                    failStream(open, errors, answered.cause());
                    return;
                }
                HttpClientResponse response = answered.result();
                response.exceptionHandler(e -> failStream(open, errors, e));
                session.status(response.statusCode());
                if (refusedRedirect(request, response)) {
                    failStream(open, errors, new IOException(session.refusal()));
                } else if (response.statusCode() < 200 || response.statusCode() > 299) {
                    failStream(open, errors, new IOException("the A2A peer answered HTTP " + response.statusCode()));
                } else {
                    new EventStream(response, maxResponseBytes, maxStreamBytes, session, open, events, errors,
                            completed).read();
                }
            });
        });
        return open;
    }

    private static void failStream(CompletableFuture<Void> open, Consumer<Throwable> errors, Throwable cause) {
        if (!open.isDone()) {
            errors.accept(cause);
            open.completeExceptionally(cause);
        }
    }

    private boolean refusedRedirect(HttpClientRequest request, HttpClientResponse response) {
        int status = response.statusCode();
        if (status < 300 || status > 399) {
            return false;
        }
        String location = response.getHeader("Location");
        session.refuse("the A2A peer answered HTTP " + status + " redirecting to "
                + (location == null ? "no Location" : bounded(location)) + "; redirects are not followed");
        request.reset();
        return true;
    }

    private boolean refusedLength(HttpClientRequest request, HttpClientResponse response) {
        String declared = response.getHeader("Content-Length");
        if (declared != null && declared.matches("\\d{1,19}") && Long.parseLong(declared) > maxResponseBytes) {
            session.refuse(tooLarge());
            request.reset();
            return true;
        }
        return false;
    }

    private String tooLarge() {
        return "an answer of the A2A peer is larger than " + maxResponseBytes + " bytes (TRIMUS_A2A_MAX_RESPONSE_BYTES);"
                + " reading stopped there and the connection was reset";
    }

    /** The request to the judged address, or an IOException (recorded as the refusal) for any other destination. */
    private RequestOptions options(HttpMethod method, String url, MultiMap headers) throws IOException {
        A2aPeerConfig peer = session.peer();
        URI target;
        try {
            target = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw refused("the A2A client was asked to call a malformed url");
        }
        int port = target.getPort() != -1 ? target.getPort() : "https".equalsIgnoreCase(target.getScheme()) ? 443 : 80;
        if (target.getHost() == null || !target.getHost().equalsIgnoreCase(peer.url().getHost())
                || port != peer.port() || !peer.url().getScheme().equalsIgnoreCase(target.getScheme())) {
            throw refused("the A2A client was asked to call " + bounded(url) + ", which is not the configured peer's"
                    + " scheme, host and port; only " + peer.url().getScheme() + "://" + peer.url().getHost() + ":"
                    + peer.port() + " is called");
        }
        String path = target.getRawPath() == null || target.getRawPath().isEmpty() ? "/" : target.getRawPath();
        long timeoutMs = Math.max(1, session.remainingMs());
        return new RequestOptions()
                .setMethod(method)
                .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(session.address(), peer.port())))
                .setHost(peer.url().getHost())
                .setPort(peer.port())
                .setSsl(peer.https())
                .setURI(target.getRawQuery() == null ? path : path + "?" + target.getRawQuery())
                .setFollowRedirects(false)
                .setConnectTimeout(timeoutMs)
                .setHeaders(headers);
    }

    private IOException refused(String reason) {
        session.refuse(reason);
        return new IOException(reason);
    }

    private <T> T await(CompletableFuture<T> answer) throws IOException, InterruptedException {
        try {
            return answer.get(session.remainingMs(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("the A2A peer did not answer before the run's deadline");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? io : new IOException(describe(cause), cause);
        }
    }

    static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    static String bounded(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }

    private record Response(int status, String body) implements A2AHttpResponse {
        @Override
        public boolean success() {
            return status >= 200 && status <= 299;
        }
    }

    private abstract static class Builder<T extends A2AHttpClient.Builder<T>> implements A2AHttpClient.Builder<T> {
        String url;
        final MultiMap headers = MultiMap.caseInsensitiveMultiMap();

        @Override
        public T url(String s) {
            this.url = s;
            return self();
        }

        @Override
        public T addHeaders(Map<String, String> added) {
            if (added != null) {
                added.forEach(headers::set);
            }
            return self();
        }

        @Override
        public T addHeader(String name, String value) {
            headers.set(name, value);
            return self();
        }

        @SuppressWarnings("unchecked")
        private T self() {
            return (T) this;
        }
    }

    private final class Get extends Builder<GetBuilder> implements GetBuilder {
        @Override
        public A2AHttpResponse get() throws IOException, InterruptedException {
            return exchange(HttpMethod.GET, url, headers, null);
        }

        @Override
        public CompletableFuture<Void> getAsyncSSE(Consumer<String> events, Consumer<Throwable> errors,
                                                   Runnable completed) throws IOException {
            throw new IOException("the A2A caller streams with POST only");
        }
    }

    private final class Post extends Builder<PostBuilder> implements PostBuilder {
        private String body;

        @Override
        public PostBuilder body(String body) {
            this.body = body;
            return this;
        }

        @Override
        public A2AHttpResponse post() throws IOException, InterruptedException {
            return exchange(HttpMethod.POST, url, headers, body);
        }

        @Override
        public CompletableFuture<Void> postAsyncSSE(Consumer<String> events, Consumer<Throwable> errors,
                                                    Runnable completed) throws IOException {
            return stream(url, headers, body, events, errors, completed);
        }
    }

    private final class Delete extends Builder<DeleteBuilder> implements DeleteBuilder {
        @Override
        public A2AHttpResponse delete() throws IOException, InterruptedException {
            return exchange(HttpMethod.DELETE, url, headers, null);
        }
    }
}
