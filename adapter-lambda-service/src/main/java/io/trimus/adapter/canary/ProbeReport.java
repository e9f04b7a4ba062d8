package io.trimus.adapter.canary;

import io.trimus.events.CanaryCheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static io.trimus.events.CanaryCheck.ALLOWED;
import static io.trimus.events.CanaryCheck.ALLOWED_HOST;
import static io.trimus.events.CanaryCheck.BRIDGE_ROUTE;
import static io.trimus.events.CanaryCheck.IP_LITERAL;
import static io.trimus.events.CanaryCheck.IP_LITERAL_VIA_PROXY;
import static io.trimus.events.CanaryCheck.METADATA;
import static io.trimus.events.CanaryCheck.METADATA_VIA_PROXY;
import static io.trimus.events.CanaryCheck.UNLISTED_NAME;
import static io.trimus.events.CanaryCheck.UNLISTED_NAME_VIA_PROXY;
import static io.trimus.events.CanaryCheck.UNLISTED_PORT;

/**
 * Reads the probe's output into its checks: one line per check, {@code trimus-canary NAME KIND RESULT [DETAIL]}, as
 * resources/canary/probe.sh prints them. Strict and bounded: only the first {@link #MAX_LINES} lines are read, a line
 * longer than {@link #MAX_LINE} or not in the grammar is ignored, the first line of a check counts, and a check
 * without a readable line is named in the error. What a line means (got through or blocked) is decided here, never
 * in the sandbox.
 */
final class ProbeReport {

    static final int MAX_LINES = 200;
    static final int MAX_LINE = 400;
    static final int MAX_GOT = 300;
    static final String PREFIX = "trimus-canary ";
    static final String GATEWAY_LINE = BRIDGE_ROUTE + ".gateway";
    static final String DOCKER0_LINE = BRIDGE_ROUTE + ".docker0";

    private static final Pattern LINE = Pattern.compile(
            "trimus-canary ([a-z_.0-9]{1,40}) (dns|tcp|http|proxy) ([a-z0-9]{1,16})(?: (.*))?");
    private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    private static final Pattern STATUS = Pattern.compile("[1-5]\\d\\d");
    private static final String CONNECT_SUCCESS = "2";

    /** The checks read, in {@link CanaryCheck#NAMES} order, and why the report is incomplete (or null). */
    record Reading(List<CanaryCheck> checks, String error) {
    }

    /** One line of the probe, parsed. */
    private record Line(String kind, String result, String detail) {
    }

    private ProbeReport() {
    }

    /** The checks {@code output} reports for the probe of {@code targets}. */
    static Reading read(String output, ProbeTargets targets) {
        Map<String, Line> lines = lines(output == null ? "" : output);
        List<CanaryCheck> checks = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String name : CanaryCheck.NAMES) {
            CanaryCheck check = check(name, lines, targets);
            if (check == null) {
                missing.add(name);
            } else {
                checks.add(check);
            }
        }
        return new Reading(List.copyOf(checks), error(missing, lines));
    }

    /**
     * Why checks are missing: the proxy kept a request waiting past the probe's wait (neither refused nor answered:
     * the check cannot say blocked), or the probe printed nothing readable for them.
     */
    private static String error(List<String> missing, Map<String, Line> lines) {
        List<String> unanswered = missing.stream().filter(name -> lines.get(name) != null
                && lines.get(name).kind().equals("http") && lines.get(name).result().equals("silent")).toList();
        List<String> unread = missing.stream().filter(name -> !unanswered.contains(name)).toList();
        List<String> parts = new ArrayList<>();
        if (!unanswered.isEmpty()) {
            parts.add("the proxy neither refused nor answered within " + ProbeTargets.PROXY_WAIT_SECONDS + " s: "
                    + String.join(", ", unanswered));
        }
        if (!unread.isEmpty()) {
            parts.add("the probe reported no readable result for " + String.join(", ", unread));
        }
        return parts.isEmpty() ? null : String.join("; ", parts);
    }

    /** The first readable line of each name, from the first {@link #MAX_LINES} lines. */
    private static Map<String, Line> lines(String output) {
        Map<String, Line> lines = new LinkedHashMap<>();
        int read = 0;
        for (String raw : output.split("\n", MAX_LINES + 1)) {
            if (++read > MAX_LINES) {
                break;
            }
            String text = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
            if (text.length() > MAX_LINE || !text.startsWith(PREFIX)) {
                continue;
            }
            var m = LINE.matcher(text.strip());
            if (m.matches()) {
                lines.putIfAbsent(m.group(1), new Line(m.group(2), m.group(3), m.group(4) == null ? "" : m.group(4)));
            }
        }
        return lines;
    }

    private static CanaryCheck check(String name, Map<String, Line> lines, ProbeTargets t) {
        return switch (name) {
            case UNLISTED_NAME -> dns(lines.get(name), t.unlistedName() + " (DNS at " + t.resolver() + ")");
            case UNLISTED_NAME_VIA_PROXY -> connect(name, lines.get(name),
                    t.viaProxy("CONNECT " + t.unlistedName() + ":443"));
            case IP_LITERAL -> direct(name, lines.get(name), t.ipLiteral());
            case IP_LITERAL_VIA_PROXY -> connect(name, lines.get(name), t.viaProxy("CONNECT " + t.ipLiteral()));
            case METADATA -> direct(name, lines.get(name), io.trimus.events.CanaryRequested.METADATA_ADDRESS + ":80");
            case METADATA_VIA_PROXY -> metadataViaProxy(lines.get(name), t.viaProxy(
                    "GET http://" + io.trimus.events.CanaryRequested.METADATA_ADDRESS + "/latest/meta-data/"));
            case UNLISTED_PORT -> connect(name, lines.get(name), t.viaProxy("CONNECT " + t.portTarget()));
            case BRIDGE_ROUTE -> bridge(lines.get(GATEWAY_LINE), lines.get(DOCKER0_LINE), t);
            case ALLOWED_HOST -> t.allowedHost() == null
                    ? CanaryCheck.skipped(ALLOWED_HOST, ALLOWED, "the company's allowlist names no host a probe can try")
                    : allowed(lines.get(name), t.viaProxy("CONNECT " + t.allowedHost()));
            default -> null;
        };
    }

    /** The resolver: any address got through; NXDOMAIN, REFUSED, no answer or no resolver is blocked. */
    private static CanaryCheck dns(Line line, String target) {
        if (line == null || !line.kind().equals("dns")) {
            return null;
        }
        return switch (line.result()) {
            case "nxdomain" -> CanaryCheck.mustFail(UNLISTED_NAME, target, "NXDOMAIN", false);
            case "refused" -> CanaryCheck.mustFail(UNLISTED_NAME, target, "REFUSED", false);
            case "servfail" -> CanaryCheck.mustFail(UNLISTED_NAME, target, "SERVFAIL", false);
            case "noanswer" -> CanaryCheck.mustFail(UNLISTED_NAME, target, "no address in the answer", false);
            case "noserver" -> CanaryCheck.mustFail(UNLISTED_NAME, target, "no answer from the resolver", false);
            case "answer" -> CanaryCheck.mustFail(UNLISTED_NAME, target, ADDRESS.matcher(line.detail()).matches()
                    ? "resolved to " + line.detail() : "resolved (to no readable address)", true);
            default -> null;
        };
    }

    /**
     * A direct connection: connected, or refused (the packet left and something answered), got through; a timeout or
     * an unreachable network is blocked.
     */
    private static CanaryCheck direct(String name, Line line, String target) {
        Boolean through = tcpGotThrough(line);
        return through == null ? null : CanaryCheck.mustFail(name, target, tcpGot(line, false), through);
    }

    /** True when a direct try got through, false when it was blocked, null for a line that is not a TCP result. */
    private static Boolean tcpGotThrough(Line line) {
        if (line == null || !line.kind().equals("tcp")) {
            return null;
        }
        return switch (line.result()) {
            case "connected", "refused" -> true;
            case "timeout", "unreachable", "error" -> false;
            default -> null;
        };
    }

    private static String tcpGot(Line line, boolean host) {
        return switch (line.result()) {
            case "connected" -> "connected";
            case "refused" -> host ? "connection refused by the host (its firewall let the packet in)"
                    : "connection refused (the packet got out and was answered)";
            case "timeout" -> "timed out";
            case "unreachable" -> "network unreachable";
            default -> got("could not connect: " + line.detail());
        };
    }

    /** The bridge route: either host address answering (connected or refused) got through. */
    private static CanaryCheck bridge(Line gateway, Line docker0, ProbeTargets t) {
        Boolean viaGateway = tcpGotThrough(gateway);
        Boolean viaDocker0 = tcpGotThrough(docker0);
        if (viaGateway == null || viaDocker0 == null) {
            return null;
        }
        String gatewayTarget = t.gateway() + ":" + ProbeTargets.BRIDGE_PORT;
        String docker0Target = ProbeTargets.DOCKER0 + ":" + ProbeTargets.BRIDGE_PORT;
        String got = viaGateway == viaDocker0 && tcpGot(gateway, true).equals(tcpGot(docker0, true))
                ? tcpGot(gateway, true)
                : gatewayTarget + ": " + tcpGot(gateway, true) + "; " + docker0Target + ": " + tcpGot(docker0, true);
        return CanaryCheck.mustFail(BRIDGE_ROUTE, gatewayTarget + ", " + docker0Target, got(got),
                viaGateway || viaDocker0);
    }

    /** A CONNECT that must be refused: a 2xx got through; any other answer, or none, is blocked. */
    private static CanaryCheck connect(String name, Line line, String target) {
        String status = proxyStatus(line);
        return status == null ? null
                : CanaryCheck.mustFail(name, target, proxyGot(line, status), status.startsWith(CONNECT_SUCCESS));
    }

    /**
     * The metadata address through the proxy: only the proxy's refusal (403) is blocked; any other answer means the
     * proxy tried the address (a 502 is its failed dial) and got through.
     */
    private static CanaryCheck metadataViaProxy(Line line, String target) {
        String status = proxyStatus(line);
        if (status == null) {
            return null;
        }
        boolean answered = STATUS.matcher(status).matches();
        return CanaryCheck.mustFail(METADATA_VIA_PROXY, target, proxyGot(line, status),
                answered && !status.equals("403"));
    }

    /** The allowed host: any answer but 403 means the proxy admitted it; a 403 or no proxy is over-blocking. */
    private static CanaryCheck allowed(Line line, String target) {
        String status = proxyStatus(line);
        if (status == null) {
            return null;
        }
        boolean answered = STATUS.matcher(status).matches();
        boolean admitted = answered && !status.equals("403");
        String got = admitted && !status.startsWith(CONNECT_SUCCESS)
                ? "admitted, HTTP " + status + " (upstream unreachable)" : proxyGot(line, status);
        return CanaryCheck.mustWork(ALLOWED_HOST, target, got, admitted);
    }

    /**
     * The HTTP status of a proxy line ({@code 403}), or what happened instead ({@code none}, {@code garbled},
     * {@code timeout}, {@code refused}, {@code unreachable}); null for a line that is not a proxy result.
     */
    private static String proxyStatus(Line line) {
        if (line == null) {
            return null;
        }
        if (line.kind().equals("proxy")) {
            return switch (line.result()) {
                case "timeout", "refused", "unreachable" -> line.result();
                default -> null;
            };
        }
        if (!line.kind().equals("http")) {
            return null;
        }
        return STATUS.matcher(line.result()).matches() || line.result().equals("none")
                || line.result().equals("garbled") ? line.result() : null;
    }

    private static String proxyGot(Line line, String status) {
        return switch (status) {
            case "none" -> "the proxy closed the connection without an answer";
            case "garbled" -> got("not an HTTP answer: " + line.detail());
            case "timeout" -> "the proxy did not answer (timed out)";
            case "refused" -> "the proxy refused the connection (nothing listens there)";
            case "unreachable" -> "the proxy is unreachable";
            default -> "HTTP " + status;
        };
    }

    private static String got(String text) {
        return text.length() <= MAX_GOT ? text : text.substring(0, MAX_GOT - 1) + "…";
    }
}
