import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * bench/proxy's two halves, run as single-file Java programs by run.sh.
 *
 * <p>{@code origin}: the "outside" host: an HTTPS server (the test certificate) answering {@code GET /small} with a
 * small body and {@code GET /bulk?bytes=N} with N bytes, and a stand-in upstream DNS server (UDP) that maps the test
 * host to the HTTPS server's address, for egress-service to resolve with.
 *
 * <p>{@code client}: the sandboxes: every connection binds one of the registered sandbox source addresses (in turn)
 * and is a new TCP
 * connection, a full TLS handshake (no session resumption: each connection looks up a session under a key of its own)
 * and one small GET, either direct or through a proxy with {@code CONNECT}. Measures connections per second at a
 * fixed concurrency, per-connection latency sequentially (time to TLS established and to the response read), and
 * bulk throughput through one tunnel; paths are interleaved in rounds so drift hits all alike. Prints key=value lines
 * that run.sh turns into the report.
 */
public final class ProxyBench {

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        switch (args.length == 0 ? "" : args[0]) {
            case "origin" -> origin(opts);
            case "client" -> client(opts);
            default -> {
                System.err.println("usage: ProxyBench origin|client --key value ...");
                System.exit(2);
            }
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        return opts;
    }

    // ------------------------------------------------------------------------------------------------- origin

    private static void origin(Map<String, String> o) throws Exception {
        String host = o.get("host");
        InetAddress httpsIp = InetAddress.getByName(o.get("https-ip"));
        int httpsPort = Integer.parseInt(o.getOrDefault("https-port", "443"));
        SSLContext tls = serverContext(Path.of(o.get("p12")), o.getOrDefault("p12-password", "bench"));
        tls.getServerSessionContext().setSessionCacheSize(1);

        Thread dns = new Thread(() -> dns(o.get("dns"), host, httpsIp), "dns");
        dns.setDaemon(true);
        dns.start();

        SSLServerSocket server = (SSLServerSocket) tls.getServerSocketFactory().createServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(httpsIp, httpsPort), 4096);
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "https");
            t.setDaemon(true);
            return t;
        });
        System.out.println("READY https=" + httpsIp.getHostAddress() + ":" + httpsPort + " dns=" + o.get("dns"));
        System.out.flush();
        while (true) {
            Socket socket = server.accept();
            pool.execute(() -> serve((SSLSocket) socket));
        }
    }

    private static SSLContext serverContext(Path p12, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            store.load(in, password.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLSv1.3");
        tls.init(keys.getKeyManagers(), null, null);
        return tls;
    }

    /** HTTP/1.1 over TLS, keep-alive: /small → 64 bytes, /bulk?bytes=N → N bytes. */
    private static void serve(SSLSocket socket) {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            String head;
            while ((head = readHead(in)) != null) {
                String target = head.split(" ", 3)[1];
                long length = target.startsWith("/bulk?bytes=") ? Long.parseLong(target.substring(12)) : 64;
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\nContent-Type: text/plain\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                for (long left = length; left > 0; left -= chunk.length) {
                    out.write(chunk, 0, (int) Math.min(left, chunk.length));
                }
                out.flush();
            }
        } catch (IOException ignored) {
            // the client left: the next connection is what counts
        }
    }

    /**
     * Answers A for {@code host} with {@code address}, NODATA for its other types, NXDOMAIN for any other name; a
     * negative answer with an SOA (negative TTL 60 s), as a real server's.
     */
    private static void dns(String listen, String host, InetAddress address) {
        String[] hp = listen.split(":");
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])))) {
            byte[] buf = new byte[512];
            while (true) {
                DatagramPacket query = new DatagramPacket(buf, buf.length);
                socket.receive(query);
                byte[] answer = answer(Arrays.copyOf(query.getData(), query.getLength()), host, address);
                if (answer != null) {
                    socket.send(new DatagramPacket(answer, answer.length, query.getSocketAddress()));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("stand-in DNS on " + listen + ": " + e.getMessage(), e);
        }
    }

    private static byte[] answer(byte[] q, String host, InetAddress address) {
        if (q.length < 17) {
            return null;
        }
        int p = 12;
        StringBuilder name = new StringBuilder();
        while (p < q.length && q[p] != 0) {
            int len = q[p] & 0xff;
            if (name.length() > 0) {
                name.append('.');
            }
            name.append(new String(q, p + 1, len, StandardCharsets.US_ASCII));
            p += len + 1;
        }
        int questionEnd = p + 5;
        if (questionEnd > q.length) {
            return null;
        }
        int qtype = ((q[p + 1] & 0xff) << 8) | (q[p + 2] & 0xff);
        boolean ours = name.toString().equalsIgnoreCase(host);
        boolean a = ours && qtype == 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(q[0]);
        out.write(q[1]);
        out.write(0x81 | (q[2] & 0x01));                    // QR, RD copied, AA
        out.write(ours ? 0x80 : 0x83);                       // RA; NOERROR or NXDOMAIN
        out.writeBytes(new byte[]{0, 1, 0, (byte) (a ? 1 : 0), 0, (byte) (a ? 0 : 1), 0, 0});
        out.write(q, 12, questionEnd - 12);
        if (a) {
            out.writeBytes(new byte[]{(byte) 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4});
            out.writeBytes(address.getAddress());
        } else {
            // NODATA and NXDOMAIN carry the zone's SOA, as every real server's do (RFC 2308): a resolver may keep
            // the negative answer for min(SOA TTL, SOA minimum) = 60 s; without it nothing may be kept
            out.writeBytes(new byte[]{(byte) 0xc0, 12, 0, 6, 0, 1, 0, 0, 0, 60, 0, 24,
                    (byte) 0xc0, 12, (byte) 0xc0, 12, 0, 0, 0, 1, 0, 0, 0, 60, 0, 0, 0, 60, 0, 0, 0, 60, 0, 0, 0, 60});
        }
        return out.toByteArray();
    }

    // ------------------------------------------------------------------------------------------------- client

    /** One way to the origin: direct, or through a proxy at host:port with CONNECT. */
    private record Route(String name, InetSocketAddress proxy) {
    }

    private static final AtomicLong SESSION_KEY = new AtomicLong(100_000);

    private static void client(Map<String, String> o) throws Exception {
        String host = o.get("host");
        List<InetAddress> sources = sources(o.get("sources"));
        InetSocketAddress origin = new InetSocketAddress(o.get("https-ip"), Integer.parseInt(o.getOrDefault("https-port", "443")));
        SSLContext tls = clientContext(Path.of(o.get("cert")));
        tls.getClientSessionContext().setSessionCacheSize(1);
        List<Route> paths = new ArrayList<>();
        paths.add(new Route("direct", null));
        for (String proxy : o.get("proxies").split(",")) {
            String[] nv = proxy.split("=");
            String[] hp = nv[1].split(":");
            paths.add(new Route(nv[0], new InetSocketAddress(hp[0], Integer.parseInt(hp[1]))));
        }
        Client client = new Client(tls, host, sources, origin);
        Map<String, Long> pids = new LinkedHashMap<>();
        for (String entry : o.getOrDefault("pids", "").split(",")) {
            if (!entry.isBlank()) {
                pids.put(entry.split("=")[0], Long.parseLong(entry.split("=")[1]));
            }
        }
        int concurrency = Integer.parseInt(o.getOrDefault("concurrency", "16"));
        int rounds = Integer.parseInt(o.getOrDefault("rounds", "3"));
        double seconds = Double.parseDouble(o.getOrDefault("seconds", "10"));
        double warmup = Double.parseDouble(o.getOrDefault("warmup", "10"));
        int latencyCount = Integer.parseInt(o.getOrDefault("latency-connections", "2000"));
        long bulkBytes = Long.parseLong(o.getOrDefault("bulk-bytes", String.valueOf(1L << 30)));
        int bulkReps = Integer.parseInt(o.getOrDefault("bulk-reps", "3"));

        for (Route path : paths) {                          // every path works before anything is measured
            client.once(path, "/small", 64);
        }
        System.out.println("# warm-up " + warmup + " s per path (JIT of client, origin and proxies), not measured");
        for (Route path : paths) {
            rate(client, path, concurrency, warmup);
        }

        System.out.printf("# connections per second: %d rounds x %.0f s per path, concurrency %d%n", rounds, seconds, concurrency);
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (Route path : paths) {
                long cpu0 = cpuTicks(pids.get(path.name()));
                double[] r = rate(client, path, concurrency, seconds);
                long cpu = cpuTicks(pids.get(path.name())) - cpu0;
                rates.computeIfAbsent(path.name(), k -> new ArrayList<>()).add(r[0]);
                System.out.printf(Locale.ROOT, "conn_rate round=%d path=%s conn_per_s=%.1f errors=%d proxy_cpu_ms_per_conn=%.3f%n",
                        round, path.name(), r[0], (long) r[1], r[2] == 0 ? 0 : cpu * 10.0 / r[2]);
            }
        }
        for (var e : rates.entrySet()) {
            System.out.printf(Locale.ROOT, "conn_rate_median path=%s conn_per_s=%.1f%n", e.getKey(), median(e.getValue()));
        }

        System.out.printf("# latency: %d sequential connections per path, interleaved%n", latencyCount);
        Map<String, long[][]> lat = new LinkedHashMap<>();
        for (Route path : paths) {
            lat.put(path.name(), new long[][]{new long[latencyCount], new long[latencyCount]});
        }
        for (int i = 0; i < latencyCount; i++) {
            for (Route path : paths) {
                long[] t = client.timed(path);
                lat.get(path.name())[0][i] = t[0];
                lat.get(path.name())[1][i] = t[1];
            }
        }
        long[][] direct = lat.get("direct");
        for (var e : lat.entrySet()) {
            long[] est = e.getValue()[0].clone();
            long[] done = e.getValue()[1].clone();
            Arrays.sort(est);
            Arrays.sort(done);
            System.out.printf(Locale.ROOT, "latency path=%s established_p50_ms=%.3f established_p99_ms=%.3f done_p50_ms=%.3f done_p99_ms=%.3f%n",
                    e.getKey(), ms(pct(est, 50)), ms(pct(est, 99)), ms(pct(done, 50)), ms(pct(done, 99)));
        }
        long[] dEst = direct[0].clone();
        long[] dDone = direct[1].clone();
        Arrays.sort(dEst);
        Arrays.sort(dDone);
        for (var e : lat.entrySet()) {
            if (e.getKey().equals("direct")) {
                continue;
            }
            long[] est = e.getValue()[0].clone();
            long[] done = e.getValue()[1].clone();
            Arrays.sort(est);
            Arrays.sort(done);
            System.out.printf(Locale.ROOT, "added_latency path=%s established_p50_ms=%.3f established_p99_ms=%.3f done_p50_ms=%.3f done_p99_ms=%.3f%n",
                    e.getKey(), ms(pct(est, 50) - pct(dEst, 50)), ms(pct(est, 99) - pct(dEst, 99)),
                    ms(pct(done, 50) - pct(dDone, 50)), ms(pct(done, 99) - pct(dDone, 99)));
        }

        System.out.printf("# bulk: %d bytes through one connection, %d reps per path, interleaved%n", bulkBytes, bulkReps);
        Map<String, List<Double>> bulk = new LinkedHashMap<>();
        for (int rep = 1; rep <= bulkReps; rep++) {
            for (Route path : paths) {
                long cpu0 = cpuTicks(pids.get(path.name()));
                long start = System.nanoTime();
                client.once(path, "/bulk?bytes=" + bulkBytes, bulkBytes);
                double mibPerS = bulkBytes / 1048576.0 / ((System.nanoTime() - start) / 1e9);
                long cpu = cpuTicks(pids.get(path.name())) - cpu0;
                bulk.computeIfAbsent(path.name(), k -> new ArrayList<>()).add(mibPerS);
                System.out.printf(Locale.ROOT, "bulk rep=%d path=%s mib_per_s=%.1f proxy_cpu_s_per_gib=%.2f%n", rep, path.name(), mibPerS,
                        cpu / 100.0 / (bulkBytes / 1073741824.0));
            }
        }
        for (var e : bulk.entrySet()) {
            System.out.printf(Locale.ROOT, "bulk_median path=%s mib_per_s=%.1f%n", e.getKey(), median(e.getValue()));
        }
    }

    /** CPU time (user + system, in 1/100 s) a process has used so far; 0 for none (the direct path). */
    private static long cpuTicks(Long pid) {
        if (pid == null) {
            return 0;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException e) {
            return 0;
        }
    }

    /** "127.0.0.2-127.0.0.17": every address of that last-octet range. */
    private static List<InetAddress> sources(String range) throws IOException {
        String[] ends = range.split("-");
        String prefix = ends[0].substring(0, ends[0].lastIndexOf('.') + 1);
        int first = Integer.parseInt(ends[0].substring(prefix.length()));
        int last = ends.length == 1 ? first : Integer.parseInt(ends[1].substring(ends[1].lastIndexOf('.') + 1));
        List<InetAddress> all = new ArrayList<>();
        for (int i = first; i <= last; i++) {
            all.add(InetAddress.getByName(prefix + i));
        }
        return all;
    }

    /** Connections per second of {@code concurrency} loops for {@code seconds}: {rate, errors}. */
    private static double[] rate(Client client, Route path, int concurrency, double seconds) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLongArray counts = new AtomicLongArray(2);
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < concurrency; i++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        client.once(path, "/small", 64);
                        counts.incrementAndGet(0);
                    } catch (IOException e) {
                        counts.incrementAndGet(1);
                    }
                }
            });
            t.start();
            threads.add(t);
        }
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        long elapsed = System.nanoTime() - start;
        for (Thread t : threads) {
            t.join();
        }
        return new double[]{counts.get(0) / (elapsed / 1e9), counts.get(1), counts.get(0)};
    }

    private static SSLContext clientContext(Path pem) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(pem)) {
            Certificate cert = CertificateFactory.getInstance("X.509").generateCertificate(in);
            trust.setCertificateEntry("bench", cert);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLSv1.3");
        tls.init(null, tmf.getTrustManagers(), null);
        return tls;
    }

    /** The sandbox side of one connection. */
    private static final class Client {
        private final SSLContext tls;
        private final String host;
        private final List<InetAddress> sources;
        private final InetSocketAddress origin;
        private final AtomicLong next = new AtomicLong();

        Client(SSLContext tls, String host, List<InetAddress> sources, InetSocketAddress origin) {
            this.tls = tls;
            this.host = host;
            this.sources = sources;
            this.origin = origin;
        }

        /** One new connection, one request, the whole body read: {ns to TLS established, ns to response read}. */
        long[] timed(Route path) throws IOException {
            long start = System.nanoTime();
            try (SSLSocket ssl = open(path)) {
                long established = System.nanoTime() - start;
                request(ssl, "/small", 64);
                return new long[]{established, System.nanoTime() - start};
            }
        }

        void once(Route path, String target, long length) throws IOException {
            try (SSLSocket ssl = open(path)) {
                request(ssl, target, length);
            }
        }

        private SSLSocket open(Route path) throws IOException {
            Socket tcp = new Socket();
            try {
                tcp.setTcpNoDelay(true);
                // sandboxes in turn: the client closes first, and one source address's ephemeral ports would run
                // out in TIME_WAIT at these rates
                tcp.bind(new InetSocketAddress(sources.get((int) (next.getAndIncrement() % sources.size())), 0));
                tcp.connect(path.proxy() == null ? origin : path.proxy(), 5000);
                tcp.setSoTimeout(30_000);
                if (path.proxy() != null) {
                    connect(tcp);
                }
                // a session key of its own (the port is never sent): every connection is a full handshake
                SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(tcp, host,
                        (int) (SESSION_KEY.incrementAndGet() % 60_000) + 1, true);
                SSLParameters params = ssl.getSSLParameters();
                params.setServerNames(List.of(new SNIHostName(host)));
                params.setEndpointIdentificationAlgorithm("HTTPS");
                ssl.setSSLParameters(params);
                ssl.startHandshake();
                return ssl;
            } catch (IOException | RuntimeException e) {
                tcp.close();
                throw e;
            }
        }

        private void connect(Socket tcp) throws IOException {
            OutputStream out = tcp.getOutputStream();
            out.write(("CONNECT " + host + ":443 HTTP/1.1\r\nHost: " + host + ":443\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String head = readHead(tcp.getInputStream());
            if (head == null || !(head.startsWith("HTTP/1.1 200 ") || head.startsWith("HTTP/1.0 200 "))) {
                throw new IOException("CONNECT refused: " + (head == null ? "closed" : head.lines().findFirst().orElse("")));
            }
        }

        private void request(SSLSocket ssl, String target, long length) throws IOException {
            OutputStream out = ssl.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = ssl.getInputStream();
            String head = readHead(in);
            if (head == null || !head.startsWith("HTTP/1.1 200")) {
                throw new IOException("GET " + target + ": " + head);
            }
            byte[] buf = new byte[256 * 1024];
            long left = length;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    throw new IOException("body ended " + left + " bytes short");
                }
                left -= n;
            }
        }
    }

    /** The head of an HTTP message up to the blank line, read byte by byte (nothing of the body); null at EOF. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            int n = head.length();
            if (n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 2) == '\r' && head.charAt(n - 3) == '\n' && head.charAt(n - 4) == '\r') {
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

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
