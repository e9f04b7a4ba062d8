package io.trimus.adapter.offhost;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;

/**
 * The HTTP client of calls that leave the host for a tenant (lambda endpoints, A2A peers): HTTP/1.1, one connection per
 * request so nothing of one run's exchange is reused by another's, host names verified, bodies left as sent (no
 * compression) so a byte cap counts what arrives, and an answer's status line and headers bounded
 * ({@link #MAX_STATUS_LINE}, {@link #MAX_HEADERS} bytes; a longer one fails the call before its body is read).
 */
public final class OffHostHttpClient {
    /** Bytes of an answer's status line read at most. */
    public static final int MAX_STATUS_LINE = 4096;
    /** Bytes of an answer's headers, all together, read at most. */
    public static final int MAX_HEADERS = 8192;

    private OffHostHttpClient() {
    }

    /** A client holding at most {@code maxConnections} connections at once. */
    public static HttpClient create(Vertx vertx, int maxConnections) {
        return vertx.createHttpClient(new HttpClientOptions()
                        .setProtocolVersion(HttpVersion.HTTP_1_1)
                        .setKeepAlive(false)
                        .setVerifyHost(true)
                        .setTryUseCompression(false)
                        .setDecompressionSupported(false)
                        .setMaxInitialLineLength(MAX_STATUS_LINE)
                        .setMaxHeaderSize(MAX_HEADERS),
                new PoolOptions().setHttp1MaxSize(maxConnections));
    }
}
