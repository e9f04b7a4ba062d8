import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * bench/proxy's per-request comparison of the two kinds of intercepted host (run by run.sh as a single-file program):
 * the same origin host reached through egress-service's proxy by two sandboxes, one whose company lists the host with
 * request rules (every request checked against them), one holding a masked secret for it (every request's
 * surrogate swapped, every answer scanned for the value). Both go through the same interceptor (TLS terminated with
 * the egress CA, which this client trusts), so the difference is what each does per request.
 *
 * <p>Two measures, paths interleaved request by request so drift hits both alike:
 * <ul>
 *   <li>{@code keepalive}: one connection per path (CONNECT + TLS once), then sequential {@code GET /small}, each timed
 *       from its first byte written to its body read: the per-request cost alone;</li>
 *   <li>{@code newconn}: a new connection per request (TCP + CONNECT + TLS with the egress CA's leaf + the GET), timed
 *       whole: what a client that never reuses a connection sees.</li>
 * </ul>
 * Every request carries {@code Authorization: Bearer <surrogate>}: swapped on the masked path, sent as it is on the
 * ruled one. Prints {@code request_latency} and {@code request_added} (ruled minus masked) lines.
 */
public final class RequestBench {
    private record Route(String name, InetAddress source) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String host = o.get("host");
        String[] hp = o.get("proxy").split(":");
        InetSocketAddress proxy = new InetSocketAddress(hp[0], Integer.parseInt(hp[1]));
        SSLContext tls = context(Path.of(o.get("ca")));
        String auth = o.get("auth");
        int requests = Integer.parseInt(o.getOrDefault("requests", "2000"));
        int connections = Integer.parseInt(o.getOrDefault("connections", "500"));
        int warmup = Integer.parseInt(o.getOrDefault("warmup-requests", "2000"));
        Route[] paths = Arrays.stream(o.get("paths").split(",")).map(p -> p.split("=")).map(p -> {
            try {
                return new Route(p[0], InetAddress.getByName(p[1]));
            } catch (IOException e) {
                throw new IllegalArgumentException(p[1], e);
            }
        }).toArray(Route[]::new);
        Bench bench = new Bench(tls, host, proxy, auth);

        System.out.printf("# per request: %d warm-up, then %d keep-alive requests and %d new connections per path%n",
                warmup, requests, connections);
        for (Route path : paths) {
            try (Conn conn = bench.open(path.source())) {
                for (int i = 0; i < warmup; i++) {
                    conn.get();
                }
            }
            for (int i = 0; i < warmup / 10; i++) {
                bench.fresh(path.source());
            }
        }
        long[][] keep = new long[paths.length][requests];
        Conn[] open = new Conn[paths.length];
        for (int p = 0; p < paths.length; p++) {
            open[p] = bench.open(paths[p].source());
        }
        for (int i = 0; i < requests; i++) {
            for (int p = 0; p < paths.length; p++) {
                keep[p][i] = open[p].get();
            }
        }
        for (Conn conn : open) {
            conn.close();
        }
        long[][] fresh = new long[paths.length][connections];
        for (int i = 0; i < connections; i++) {
            for (int p = 0; p < paths.length; p++) {
                fresh[p][i] = bench.fresh(paths[p].source());
            }
        }
        report("keepalive", paths, keep);
        report("newconn", paths, fresh);
    }

    private static void report(String mode, Route[] paths, long[][] samples) {
        for (long[] s : samples) {
            Arrays.sort(s);
        }
        for (int p = 0; p < paths.length; p++) {
            System.out.printf(Locale.ROOT, "request_latency mode=%s path=%s p50_ms=%.3f p99_ms=%.3f%n", mode,
                    paths[p].name(), ms(pct(samples[p], 50)), ms(pct(samples[p], 99)));
        }
        if (paths.length == 2) {
            System.out.printf(Locale.ROOT, "request_added mode=%s path=%s-%s p50_ms=%.3f p99_ms=%.3f%n", mode,
                    paths[0].name(), paths[1].name(), ms(pct(samples[0], 50) - pct(samples[1], 50)),
                    ms(pct(samples[0], 99) - pct(samples[1], 99)));
        }
    }

    private static SSLContext context(Path pem) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(pem)) {
            trust.setCertificateEntry("egress-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLSv1.3");
        tls.init(null, tmf.getTrustManagers(), null);
        tls.getClientSessionContext().setSessionCacheSize(1);
        return tls;
    }

    /** Opens connections from a sandbox address through the proxy. */
    private record Bench(SSLContext tls, String host, InetSocketAddress proxy, String auth) {
        private static final java.util.concurrent.atomic.AtomicLong SESSION_KEY =
                new java.util.concurrent.atomic.AtomicLong(200_000);

        Conn open(InetAddress source) throws IOException {
            Socket tcp = new Socket();
            try {
                tcp.setTcpNoDelay(true);
                tcp.bind(new InetSocketAddress(source, 0));
                tcp.connect(proxy, 5000);
                tcp.setSoTimeout(30_000);
                OutputStream out = tcp.getOutputStream();
                out.write(("CONNECT " + host + ":443 HTTP/1.1\r\nHost: " + host + ":443\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String head = head(tcp.getInputStream());
                if (head == null || !head.startsWith("HTTP/1.1 200 ")) {
                    throw new IOException("CONNECT refused: " + head);
                }
                // a session key of its own: every connection is a full handshake
                SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(tcp, host,
                        (int) (SESSION_KEY.incrementAndGet() % 60_000) + 1, true);
                SSLParameters params = ssl.getSSLParameters();
                params.setServerNames(java.util.List.of(new SNIHostName(host)));
                params.setEndpointIdentificationAlgorithm("HTTPS");
                ssl.setSSLParameters(params);
                ssl.startHandshake();
                return new Conn(ssl, new BufferedInputStream(ssl.getInputStream()), ssl.getOutputStream(),
                        ("GET /small HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + auth + "\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
            } catch (IOException | RuntimeException e) {
                tcp.close();
                throw e;
            }
        }

        /** A new connection, one request: ns from the TCP connect to the body read. */
        long fresh(InetAddress source) throws IOException {
            long start = System.nanoTime();
            try (Conn conn = open(source)) {
                conn.get();
            }
            return System.nanoTime() - start;
        }
    }

    /** One kept-alive connection. */
    private record Conn(SSLSocket ssl, InputStream in, OutputStream out, byte[] request) implements AutoCloseable {
        /** One request: ns from its first byte written to its body read. */
        long get() throws IOException {
            long start = System.nanoTime();
            out.write(request);
            out.flush();
            String head = head(in);
            if (head == null || !head.startsWith("HTTP/1.1 200")) {
                throw new IOException("GET /small: " + head);
            }
            int at = head.toLowerCase(Locale.ROOT).indexOf("\r\ncontent-length:");
            if (at < 0) {
                throw new IOException("no Content-Length: " + head);
            }
            long left = Long.parseLong(head.substring(at + 17, head.indexOf('\r', at + 2)).trim());
            while (left > 0) {
                if (in.read() < 0) {
                    throw new IOException("body ended " + left + " bytes short");
                }
                left--;
            }
            return System.nanoTime() - start;
        }

        @Override
        public void close() throws IOException {
            ssl.close();
        }
    }

    private static String head(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            int n = head.length();
            if (n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 2) == '\r' && head.charAt(n - 3) == '\n'
                    && head.charAt(n - 4) == '\r') {
                return head.toString();
            }
            if (n > 16384) {
                throw new IOException("head too long");
            }
        }
        return head.length() == 0 ? null : head.toString();
    }

    private static long pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static double ms(long ns) {
        return ns / 1e6;
    }
}
