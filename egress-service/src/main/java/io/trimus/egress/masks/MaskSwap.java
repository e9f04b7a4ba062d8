package io.trimus.egress.masks;

import io.trimus.events.secrets.SandboxMask;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;

/**
 * The swap rules for one request of a sandbox to a host, pure. A surrogate of a secret whose scope does not cover the
 * host, anywhere in the request target or headers (also inside {@code Basic} credentials), refuses the whole request.
 * Otherwise each header some in-scope secret may ride in has that secret's surrogate replaced by the value (also inside
 * {@code Basic} credentials); such a header that carried no surrogate is a credential of the sandbox's own and is
 * removed, so an agent cannot use another key with the provider. {@code Proxy-Authorization} is never forwarded.
 */
public final class MaskSwap {
    private static final String BASIC = "basic ";
    private static final String PROXY_AUTHORIZATION = "proxy-authorization";

    private MaskSwap() {
    }

    /**
     * The outcome: the headers to forward and the swaps per secret name, or the secret that was out of scope; and
     * {@code encoded}, each encoded form of a credential sent with a value (base64 of Basic {@code user:value}) with the
     * form the sandbox sent, so that an answer echoing it can be given the sandbox's form back ({@link EchoSwap}).
     */
    public record Outcome(List<Entry<String, String>> headers, Map<String, Integer> swaps, String outOfScope,
                          Map<String, String> encoded) {
        /** Whether the request may be forwarded. */
        public boolean allowed() {
            return outOfScope == null;
        }
    }

    /**
     * Applies the rules to a request for {@code host} (normalised) with request target {@code uri} and
     * {@code headers} in their order.
     */
    public static Outcome apply(String host, String uri, List<Entry<String, String>> headers, RunMasks masks) {
        List<SandboxMask> inScope = new ArrayList<>();
        for (SandboxMask mask : masks.masks()) {
            if (mask.scope().covers(host)) {
                inScope.add(mask);
            } else if (carries(uri, mask.surrogate()) || headers.stream().anyMatch(h -> carries(h.getValue(),
                    mask.surrogate()))) {
                return new Outcome(List.of(), Map.of(), mask.name(), Map.of());
            }
        }
        Map<String, Integer> swaps = new LinkedHashMap<>();
        Map<String, String> encoded = new LinkedHashMap<>();
        List<Entry<String, String>> forwarded = new ArrayList<>(headers.size());
        for (Entry<String, String> header : headers) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (name.equals(PROXY_AUTHORIZATION)) {
                continue;
            }
            List<SandboxMask> riders = inScope.stream().filter(m -> m.scope().allowsHeader(name)).toList();
            if (riders.isEmpty()) {
                forwarded.add(header);
                continue;
            }
            String swapped = swap(header.getValue(), riders, swaps, encoded);
            if (swapped != null) {
                forwarded.add(Map.entry(header.getKey(), swapped));
            }
        }
        return new Outcome(forwarded, swaps, null, encoded);
    }

    /** The value with the riders' surrogates replaced, counted in {@code swaps}; null when it held none of them. */
    private static String swap(String value, List<SandboxMask> riders, Map<String, Integer> swaps,
                               Map<String, String> encoded) {
        if (value.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            String decoded = basic(value);
            if (decoded != null) {
                String swapped = replace(decoded, riders, swaps);
                if (swapped == null) {
                    return null;
                }
                String sent = Base64.getEncoder().encodeToString(swapped.getBytes(StandardCharsets.UTF_8));
                encoded.put(sent, value.substring(BASIC.length()).trim());
                return value.substring(0, BASIC.length()) + sent;
            }
        }
        return replace(value, riders, swaps);
    }

    private static String replace(String text, List<SandboxMask> riders, Map<String, Integer> swaps) {
        String result = text;
        boolean any = false;
        for (SandboxMask mask : riders) {
            if (result.contains(mask.surrogate())) {
                result = result.replace(mask.surrogate(), mask.value());
                swaps.merge(mask.name(), 1, Integer::sum);
                any = true;
            }
        }
        return any ? result : null;
    }

    /** Whether {@code text} holds the surrogate as is, percent-decoded or inside Basic credentials. */
    static boolean carries(String text, String surrogate) {
        if (text == null) {
            return false;
        }
        if (text.contains(surrogate)) {
            return true;
        }
        if (text.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            String decoded = basic(text);
            if (decoded != null && decoded.contains(surrogate)) {
                return true;
            }
        }
        if (text.indexOf('%') >= 0) {
            try {
                return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8).contains(surrogate);
            } catch (IllegalArgumentException malformed) {
                return false;
            }
        }
        return false;
    }

    /** The decoded {@code user:password} of a Basic credential, or null when it is not base64 of text. */
    private static String basic(String value) {
        try {
            return new String(Base64.getDecoder().decode(value.substring(BASIC.length()).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }
}
