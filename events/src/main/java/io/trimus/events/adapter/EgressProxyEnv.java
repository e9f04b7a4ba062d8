package io.trimus.events.adapter;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The proxy settings Trimus writes into every container on the egress network, pointing at egress-service's explicit
 * proxy. They are Trimus's: run-service refuses an agent whose env names one (in any case), and the adapter writes
 * them over whatever an agent stored before that rule.
 */
public final class EgressProxyEnv {
    /** The variables, upper- and lower-case: curl, Go and Rust clients read one or the other. */
    public static final List<String> NAMES = List.of("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy",
            "NO_PROXY", "no_proxy");
    /** Nothing but the container itself bypasses the proxy. */
    public static final String NO_PROXY = "localhost,127.0.0.1,::1";

    private EgressProxyEnv() {
    }

    /** The settings for a proxy at {@code host:port}. */
    public static Map<String, String> of(String hostPort) {
        String url = "http://" + hostPort;
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : NAMES) {
            env.put(name, name.toUpperCase(Locale.ROOT).equals("NO_PROXY") ? NO_PROXY : url);
        }
        return Map.copyOf(env);
    }

    /** Whether an agent's env variable would shadow one of these (names compared without case). */
    public static boolean reserved(String name) {
        return NAMES.stream().anyMatch(n -> n.equalsIgnoreCase(name));
    }
}
