package io.trimus.events.adapter;

import java.util.regex.Pattern;

/**
 * The {@code user} of a container agent ({@code uid} or {@code uid:gid}, numbers only, so whether it is root can be
 * told without the image's /etc/passwd) and TRIMUS_DOCKER_ALLOW_ROOT, which run-service (400) and the adapter service
 * (REJECTED) apply alike.
 */
public final class ContainerUser {

    /** What a container runs as when neither its agent nor its image names a non-root user: nobody:nogroup. */
    public static final String DEFAULT = "65534:65534";

    private static final Pattern USER = Pattern.compile("([0-9]{1,10})(?::([0-9]{1,10}))?");

    private ContainerUser() {
    }

    /** Whether a {@code uid[:gid]} (or an image's USER, which may be a name) means uid 0. */
    public static boolean isRoot(String user) {
        if (user == null || user.isBlank()) {
            return true;   // Docker runs a container without a user as root
        }
        String uid = user.trim();
        int colon = uid.indexOf(':');
        if (colon >= 0) {
            uid = uid.substring(0, colon);
        }
        return uid.equals("root") || uid.isEmpty() || uid.chars().allMatch(Character::isDigit) && Long.parseLong(uid) == 0;
    }

    /** Reads {@code adapter_config.user}: null when absent. */
    static String parse(com.fasterxml.jackson.databind.JsonNode node) {
        if (ConfigFields.absent(node)) {
            return null;
        }
        var m = node.isTextual() ? USER.matcher(node.asText()) : null;
        if (m == null || !m.matches() || Long.parseLong(m.group(1)) > Integer.MAX_VALUE
                || m.group(2) != null && Long.parseLong(m.group(2)) > Integer.MAX_VALUE) {
            throw new AdapterConfigException(ConfigFields.PREFIX + "user",
                    "must be a numeric uid or uid:gid such as 1000:1000");
        }
        return node.asText();
    }

    /**
     * Refuses root when the operator does not allow it.
     *
     * @throws AdapterConfigException naming {@code adapter_config.user}
     */
    public static void check(String user, boolean allowRoot) {
        if (user != null && !allowRoot && isRoot(user)) {
            throw new AdapterConfigException(ConfigFields.PREFIX + "user", "asks for root (uid 0), which this Trimus"
                    + " does not allow (TRIMUS_DOCKER_ALLOW_ROOT=false); use a non-root uid such as 1000:1000, or"
                    + " leave user unset to run as the image's non-root USER or " + DEFAULT);
        }
    }
}
