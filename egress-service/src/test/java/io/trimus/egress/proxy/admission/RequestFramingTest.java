package io.trimus.egress.proxy.admission;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Request heads and body framing, where the proxy decides what the next request on a kept-alive connection is:
 * every form a peer further on could read differently (request smuggling) is refused, not guessed. Each malformed
 * form goes through {@link RequestStream}, as the plain proxy and the masking interceptor read it.
 */
class RequestFramingTest {
    private static final String POST = "POST http://example.test/ HTTP/1.1\r\nHost: example.test\r\n";
    private static final String CHUNKED = POST + "Transfer-Encoding: chunked\r\n\r\n";
    private static final String BODY = "\u0000body:";

    @Test
    void aChunkedBodyEndsAfterItsLastChunkAndTrailersWhereverTheReadsSplitIt() throws Exception {
        String body = "4;ext=1;q=\"a b\"\r\nWiki\r\n5\r\npedia\r\n0\r\nTrailer: x\r\n\r\n";
        String next = "GET http://other.test/ HTTP/1.1\r\n\r\n";
        byte[] wire = (body + next).getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 1; split < body.length(); split++) {
            RequestBodyFraming framing = RequestBodyFraming.of(head("Transfer-Encoding: chunked\r\n"));
            Buffer first = Buffer.buffer(Arrays.copyOfRange(wire, 0, split));
            Buffer second = Buffer.buffer(Arrays.copyOfRange(wire, split, wire.length));

            int consumed = framing.consume(first, 0);
            assertThat(framing.done()).isFalse();
            consumed += framing.consume(second, 0);

            assertThat(framing.done()).isTrue();
            assertThat(consumed).as("split at %d", split).isEqualTo(body.length());
        }
    }

    @Test
    void aContentLengthBodyEndsAfterItsLength() throws Exception {
        RequestBodyFraming framing = RequestBodyFraming.of(head("Content-Length: 3\r\n"));

        assertThat(framing.consume(Buffer.buffer("abcGET"), 0)).isEqualTo(3);
        assertThat(framing.done()).isTrue();
    }

    @Test
    void aStreamYieldsEachHeadThenItsBodyBytesAsSentWhereverTheReadsSplitThem() throws Exception {
        String wire = "\r\n" + CHUNKED + "3;x=y\r\nabc\r\n0\r\n\r\n"
                + "GET http://example.test/b HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi"
                + "GET http://example.test/c HTTP/1.0\r\n\r\n";
        for (int split = 0; split < wire.length(); split++) {
            RequestStream stream = new RequestStream(8192);
            List<String> parts = new ArrayList<>();
            stream.append(Buffer.buffer(wire.substring(0, split)));
            drain(stream, parts);
            stream.append(Buffer.buffer(wire.substring(split)));
            drain(stream, parts);

            assertThat(joined(parts)).as("split at %d", split)
                    .isEqualTo("POST /|3;x=y\r\nabc\r\n0\r\n\r\n|GET /b|hi|GET /c");
        }
    }

    /**
     * Each head the stream refuses: bare LF or CR anywhere, folding, a space before the colon, control bytes, two
     * Hosts, Transfer-Encoding on HTTP/1.0 or with Content-Length, two or odd lengths, codings other than chunked.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "GET http://example.test/ HTTP/1.1\nHost: example.test\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nHost: example.test\nX-Smuggled: 1\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nHost: example.test\r\n\n",
            "GET http://example.test/ HTTP/1.1\r\nHost: example.test\n\n",
            "GET http://example.test/ HTTP/1.1\r\nX: a\rb\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nX: a\r\n folded\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nX: a\r\n\tfolded\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nHost : example.test\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nX: a\u0001b\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nX: a\u0000b\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nX: \u001fa\r\n\r\n",
            "GET http://example.test/ HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\n\r\n",
            "POST http://example.test/ HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nContent-Length: +3\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST http://example.test/ HTTP/1.1\r\nTransfer-Encoding: xchunked\r\n\r\n",
            "GET /path HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET /path#frag HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET * HTTP/1.1\r\nHost: a\r\n\r\n",
            "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT example.test HTTP/1.1\r\n\r\n",
            "CONNECT user@example.test:443 HTTP/1.1\r\n\r\n",
            "GET http://example.test/ HTTP/2.0\r\n\r\n",
            "GET  http://example.test/ HTTP/1.1\r\n\r\n",
            "\r\n\r\nGET http://example.test/ HTTP/1.1\r\n\r\n"})
    void aHeadThatCouldBeReadTwoWaysIsMalformed(String head) {
        assertMalformed(head);
    }

    /**
     * Each chunked body the stream refuses: a chunk-size line, data terminator, last chunk or trailer ending in a bare
     * LF (the way a second request hides inside a body), control bytes in an extension or a trailer, a folded
     * trailer, a size that is no hex number or too large.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "3\nabc\r\n0\r\n\r\n",
            "3\r\nabc\n0\r\n\r\n",
            "3\r\nabc\r0\r\n\r\n",
            "0\r\n\nGET http://hidden.test/ HTTP/1.1\r\nHost: hidden.test\r\n\r\n",
            "0\n\r\n",
            "0\r\nX: y\n\r\n",
            "0\r\nX: y\r\n\n",
            "3;a=\u0001\r\nabc\r\n0\r\n\r\n",
            "3;a\nb\r\nabc\r\n0\r\n\r\n",
            "3;a=\u0000\r\nabc\r\n0\r\n\r\n",
            "0\r\nX: \u0001\r\n\r\n",
            "0\r\nX: y\r\n folded\r\n\r\n",
            "0\r\nX : y\r\n\r\n",
            "0\r\n: y\r\n\r\n",
            "10000000000000000\r\n",
            "0x3\r\nabc\r\n0\r\n\r\n",
            "-3\r\nabc\r\n0\r\n\r\n",
            ";3\r\nabc\r\n0\r\n\r\n"})
    void aChunkedBodyThatCouldBeReadTwoWaysIsMalformed(String body) {
        assertMalformed(CHUNKED + body);
    }

    @Test
    void aBareLfIsRefusedAtOnceNotWhenAFurtherBlankLineArrives() {
        RequestStream stream = new RequestStream(8192);
        stream.append(Buffer.buffer("GET http://example.test/ HTTP/1.1\r\nHost: example.test\n"));

        assertThatThrownBy(stream::next).isInstanceOf(MalformedRequest.class);
    }

    @Test
    void aHeadLongerThanTheLimitIsTooLargeNotMalformed() {
        RequestStream stream = new RequestStream(64);
        stream.append(Buffer.buffer("GET http://example.test/ HTTP/1.1\r\nX: " + "a".repeat(64)));

        assertThatThrownBy(stream::next).isInstanceOfSatisfying(MalformedRequest.class,
                refused -> assertThat(refused.tooLarge()).isTrue());
    }

    @Test
    void connectAbsoluteFormAndOriginFormWithItsHostAreTheRequestsTheProxyServes() throws Exception {
        ProxyRequestHead connect = parse("CONNECT API.Example.test:443 HTTP/1.1\r\n\r\n");
        ProxyRequestHead get = parse("GET http://example.test?q=1 HTTP/1.1\r\nProxy-Connection: keep-alive\r\n\r\n");
        ProxyRequestHead tls = parse("GET HTTPS://Example.test/x HTTP/1.1\r\nHost: example.test\r\n\r\n");
        ProxyRequestHead steered = parse("GET /p?q=1 HTTP/1.1\r\nHost: Plain.Example.test\r\n\r\n");
        ProxyRequestHead noHost = parse("GET /path HTTP/1.0\r\n\r\n");

        assertThat(steered.absoluteForm()).isFalse();
        assertThat(steered.target()).isEqualTo(new ProxyTarget("plain.example.test", 80));
        assertThat(new String(steered.forwardedHead(), StandardCharsets.ISO_8859_1))
                .isEqualTo("GET /p?q=1 HTTP/1.1\r\nHost: Plain.Example.test\r\n\r\n");
        assertThat(noHost.target()).isNull();
        assertThat(new String(noHost.forwardedHead("example.test"), StandardCharsets.ISO_8859_1))
                .isEqualTo("GET /path HTTP/1.0\r\nHost: example.test\r\n\r\n");
        assertThat(connect.absoluteForm()).isTrue();
        assertThat(get.absoluteForm()).isTrue();
        assertThat(connect.isConnect()).isTrue();
        assertThat(connect.target()).isEqualTo(new ProxyTarget("api.example.test", 443));
        assertThat(get.target()).isEqualTo(new ProxyTarget("example.test", 80));
        assertThat(get.scheme()).isEqualTo("http");
        assertThat(new String(get.forwardedHead(), StandardCharsets.ISO_8859_1))
                .isEqualTo("GET /?q=1 HTTP/1.1\r\nHost: example.test\r\n\r\n");
        assertThat(tls.scheme()).isEqualTo("https");
        assertThat(tls.target()).isEqualTo(new ProxyTarget("example.test", 443));
        assertThat(new String(tls.forwardedHead(), StandardCharsets.ISO_8859_1))
                .isEqualTo("GET /x HTTP/1.1\r\nHost: example.test\r\n\r\n");
    }

    private static void assertMalformed(String wire) {
        RequestStream stream = new RequestStream(8192);
        stream.append(Buffer.buffer(wire.getBytes(StandardCharsets.ISO_8859_1)));
        assertThatThrownBy(() -> drain(stream, new ArrayList<>())).as(wire.replace("\r", "\\r").replace("\n", "\\n"))
                .isInstanceOfSatisfying(MalformedRequest.class, refused -> assertThat(refused.tooLarge()).isFalse());
    }

    /** Every part the stream yields now: a head as its method and origin-form target, body bytes as text. */
    private static void drain(RequestStream stream, List<String> parts) throws MalformedRequest {
        for (RequestStream.Part part = stream.next(); part != null; part = stream.next()) {
            if (part instanceof RequestStream.Head head) {
                parts.add(head.head().method() + " " + head.head().originForm());
            } else {
                parts.add(BODY + ((RequestStream.Body) part).bytes().toString(StandardCharsets.ISO_8859_1));
            }
        }
    }

    /** The parts with the body bytes of each request joined, however many reads they came in. */
    private static String joined(List<String> parts) {
        List<String> joined = new ArrayList<>();
        for (String part : parts) {
            int last = joined.size() - 1;
            if (part.startsWith(BODY) && last >= 0 && joined.get(last).startsWith(BODY)) {
                joined.set(last, joined.get(last) + part.substring(BODY.length()));
            } else {
                joined.add(part);
            }
        }
        return String.join("|", joined).replace(BODY, "");
    }

    private static ProxyRequestHead head(String headers) throws MalformedRequest {
        return parse("POST http://example.test/ HTTP/1.1\r\n" + headers + "\r\n");
    }

    private static ProxyRequestHead parse(String head) throws MalformedRequest {
        return ProxyRequestHead.parse(head.getBytes(StandardCharsets.ISO_8859_1));
    }
}
