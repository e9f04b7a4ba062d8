package io.trimus.egress.proxy;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Request heads and body framing, where the proxy decides what the next request on a kept-alive connection is:
 * ambiguity a peer further on could read differently (request smuggling) is refused, not guessed.
 */
class RequestFramingTest {

    @Test
    void aChunkedBodyEndsAfterItsLastChunkAndTrailersWhereverTheReadsSplitIt() throws Exception {
        String body = "4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nTrailer: x\r\n\r\n";
        String next = "GET http://other.test/ HTTP/1.1\r\n\r\n";
        byte[] wire = (body + next).getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 1; split < body.length(); split++) {
            RequestBodyFraming framing = RequestBodyFraming.of(head("Transfer-Encoding: chunked\r\n"));
            Buffer first = Buffer.buffer(java.util.Arrays.copyOfRange(wire, 0, split));
            Buffer second = Buffer.buffer(java.util.Arrays.copyOfRange(wire, split, wire.length));

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
    void ambiguousFramingIsMalformed() {
        assertThatThrownBy(() -> RequestBodyFraming.of(head("Content-Length: 3\r\nTransfer-Encoding: chunked\r\n")))
                .isInstanceOf(MalformedRequest.class);
        assertThatThrownBy(() -> RequestBodyFraming.of(head("Content-Length: 3\r\nContent-Length: 4\r\n")))
                .isInstanceOf(MalformedRequest.class);
        assertThatThrownBy(() -> RequestBodyFraming.of(head("Transfer-Encoding: gzip, chunked\r\n")))
                .isInstanceOf(MalformedRequest.class);
        assertThatThrownBy(() -> RequestBodyFraming.of(head("Content-Length: -1\r\n")))
                .isInstanceOf(MalformedRequest.class);
        assertThatThrownBy(() -> RequestBodyFraming.of(head("Transfer-Encoding: chunked\r\n"))
                .consume(Buffer.buffer("zz\r\n"), 0)).isInstanceOf(MalformedRequest.class);
    }

    @Test
    void connectAbsoluteFormAndOriginFormWithItsHostAreTheRequestsTheProxyServes() throws Exception {
        ProxyRequestHead connect = parse("CONNECT API.Example.test:443 HTTP/1.1\r\n\r\n");
        ProxyRequestHead get = parse("GET http://example.test?q=1 HTTP/1.1\r\nProxy-Connection: keep-alive\r\n\r\n");
        ProxyRequestHead steered = parse("GET /p?q=1 HTTP/1.1\r\nHost: Plain.Example.test\r\n\r\n");
        ProxyRequestHead noHost = parse("GET /path HTTP/1.0\r\n\r\n");

        assertThat(steered.absoluteForm()).isFalse();
        assertThat(steered.target()).isEqualTo(new ProxyTarget("plain.example.test", 80));
        assertThat(new String(steered.forwardedHead(), StandardCharsets.ISO_8859_1))
                .isEqualTo("GET /p?q=1 HTTP/1.1\r\nHost: Plain.Example.test\r\n\r\n");
        assertThat(noHost.target()).isNull();
        assertThat(connect.absoluteForm()).isTrue();
        assertThat(get.absoluteForm()).isTrue();
        assertThat(connect.isConnect()).isTrue();
        assertThat(connect.target()).isEqualTo(new ProxyTarget("api.example.test", 443));
        assertThat(get.target()).isEqualTo(new ProxyTarget("example.test", 80));
        assertThat(new String(get.forwardedHead(), StandardCharsets.ISO_8859_1))
                .isEqualTo("GET /?q=1 HTTP/1.1\r\nHost: example.test\r\n\r\n");
        for (String malformed : new String[] {
                "GET /path HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",              // two Hosts
                "GET /path#frag HTTP/1.1\r\nHost: a\r\n\r\n",                   // a fragment
                "GET * HTTP/1.1\r\nHost: a\r\n\r\n",
                "GET https://example.test/ HTTP/1.1\r\n\r\n",               // the proxy does not originate TLS
                "CONNECT example.test HTTP/1.1\r\n\r\n",                    // no port
                "CONNECT user@example.test:443 HTTP/1.1\r\n\r\n",           // userinfo
                "GET http://example.test/ HTTP/2.0\r\n\r\n",
                "GET http://example.test/ HTTP/1.1\r\nX: a\r\n folded\r\n\r\n",
                "GET http://example.test/ HTTP/1.1\r\nHost : example.test\r\n\r\n",
                "GET  http://example.test/ HTTP/1.1\r\n\r\n"}) {
            assertThatThrownBy(() -> parse(malformed)).as(malformed).isInstanceOf(MalformedRequest.class);
        }
    }

    private static ProxyRequestHead head(String headers) throws MalformedRequest {
        return parse("POST http://example.test/ HTTP/1.1\r\n" + headers + "\r\n");
    }

    private static ProxyRequestHead parse(String head) throws MalformedRequest {
        return ProxyRequestHead.parse(head.getBytes(StandardCharsets.ISO_8859_1));
    }
}
