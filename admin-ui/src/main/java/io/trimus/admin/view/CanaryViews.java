package io.trimus.admin.view;

import io.trimus.admin.client.EgressServiceApi.Canary;
import io.trimus.admin.client.EgressServiceApi.CanaryCheck;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;

/**
 * A company's egress canaries as its page shows them: the latest one's status as a badge, its checks (a check that
 * got through although it should have been blocked is breached), the earlier ones and whether the page turns red.
 */
public final class CanaryViews {
    /** Most earlier canaries the panel lists (egress-service sends at most this many). */
    static final int HISTORY = 20;
    /** Longest target, answer or error a row shows: they come from the probe, shown as text and cut here. */
    static final int MAX_SHOWN = 300;

    private CanaryViews() {
    }

    /**
     * The "Canaries" panel of a company's page; {@code loadError} says why there is no status (egress-service did not
     * answer), {@code notice} what the last "Run a canary now" did. Who sees the button is the template's to ask.
     */
    public record Panel(String companyId, String status, String statusText, String finishedAt, String finishedIso,
                        String requestedAt, String trigger, String interval, String error, List<CheckRow> checks,
                        List<HistoryRow> history, List<String> breachedChecks, String loadError,
                        String notice) {
        /** Whether the latest canary got through somewhere: the page turns red. */
        public boolean breached() {
            return "breached".equals(status);
        }

        /** The names of the checks that got through, for the page's alert: "bridge_route, unlisted_name". */
        public String breachedNames() {
            return String.join(", ", breachedChecks);
        }

        /** Whether egress-service answered (the panel has a status to show). */
        public boolean loaded() {
            return loadError == null;
        }

        /** Whether the latest canary is still running: the panel asks again in a few seconds. */
        public boolean running() {
            return "running".equals(status);
        }

        /** The same panel with {@code sentence} under it, e.g. why a run could not be requested. */
        public Panel withNotice(String sentence) {
            return new Panel(companyId, status, statusText, finishedAt, finishedIso, requestedAt, trigger, interval,
                    error, checks, history, breachedChecks, loadError, sentence);
        }
    }

    /** One check of the latest canary; {@code breached} rows are highlighted. */
    public record CheckRow(String name, String target, String expected, String got, String outcome,
                           boolean breached) {
    }

    /** An earlier canary: its status badge and when it finished (or was asked for, while it has not). */
    public record HistoryRow(String status, String statusText, String at, String iso, String trigger) {
    }

    /** The panel for {@code canary} as egress-service answered it. */
    public static Panel of(String companyId, Canary canary, String notice) {
        String status = status(canary.status());
        List<CheckRow> checks = canary.checks() == null ? List.of() : canary.checks().stream()
                .filter(Objects::nonNull).map(CanaryViews::row).toList();
        List<HistoryRow> history = canary.history() == null ? List.of() : canary.history().stream()
                .filter(Objects::nonNull).limit(HISTORY)
                .map(h -> new HistoryRow(status(h.status()), statusText(status(h.status())),
                        Times.utc(h.finishedAt() != null ? h.finishedAt() : h.requestedAt()),
                        Times.iso(h.finishedAt() != null ? h.finishedAt() : h.requestedAt()), text(h.trigger())))
                .toList();
        List<String> breached = "breached".equals(status)
                ? checks.stream().filter(CheckRow::breached).map(CheckRow::name).toList() : List.of();
        return new Panel(companyId, status, statusText(status), Times.utc(canary.finishedAt()),
                Times.iso(canary.finishedAt()), Times.utc(canary.requestedAt()), text(canary.trigger()),
                interval(canary.interval()), canary.error() == null ? null : cut(canary.error()), checks, history,
                breached, null, notice);
    }

    /** The panel when egress-service could not say: {@code sentence} instead of a status. */
    public static Panel failed(String companyId, String sentence) {
        return new Panel(companyId, null, null, null, null, null, null, null, null, List.of(), List.of(), List.of(),
                sentence, null);
    }

    /** A status egress-service may send, as the badge's CSS class; anything else counts as {@code unknown}. */
    public static String status(String status) {
        return status == null ? "unknown" : switch (status) {
            case "running", "passed", "breached", "failed", "none" -> status;
            default -> "unknown";
        };
    }

    /** The badge's words. */
    public static String statusText(String status) {
        return switch (status) {
            case "none" -> "never run";
            case "unknown" -> "unknown status";
            default -> status;
        };
    }

    private static CheckRow row(CanaryCheck c) {
        return new CheckRow(text(c.name()), cut(c.target()), text(c.expected()), cut(c.got()), text(c.outcome()),
                c.breached());
    }

    /**
     * The schedule in words: {@code PT15M} as "every 15 minutes"; also a number of seconds ({@code 900.000000000}, how
     * Jackson writes a Duration unless told otherwise); null when there is none or it cannot be read.
     */
    static String interval(String iso) {
        if (iso == null || iso.isBlank()) {
            return null;
        }
        try {
            String text = iso.strip();
            Duration d = text.matches("\\d{1,9}(\\.\\d{1,9})?")
                    ? Duration.ofSeconds(Long.parseLong(text.replaceFirst("\\..*", ""))) : Duration.parse(text);
            if (d.isZero() || d.isNegative()) {
                return null;
            }
            long minutes = d.toMinutes();
            if (minutes == 0) {
                return "every " + d.toSeconds() + " seconds";
            }
            if (minutes % 60 == 0) {
                long hours = minutes / 60;
                return hours == 1 ? "every hour" : "every " + hours + " hours";
            }
            return minutes == 1 ? "every minute" : "every " + minutes + " minutes";
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    private static String cut(String value) {
        if (value == null) {
            return "";
        }
        return value.length() <= MAX_SHOWN ? value : value.substring(0, MAX_SHOWN) + "…";
    }
}
