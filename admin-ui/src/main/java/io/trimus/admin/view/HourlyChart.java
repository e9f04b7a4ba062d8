package io.trimus.admin.view;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Allowed connections and denials per hour as an inline SVG bar chart, rendered on the server: two bars an hour,
 * an hour axis, a value axis, a legend, and a {@code <title>}/{@code <desc>} that say the same in words for screen
 * readers. Every text that comes from outside is escaped here, since the page inserts the SVG unescaped.
 */
final class HourlyChart {
    static final int WIDTH = 720;
    static final int HEIGHT = 230;
    static final int LEFT = 44;
    static final int RIGHT = 8;
    static final int TOP = 30;
    static final int BOTTOM = 26;
    static final int PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
    static final String ALLOWED_COLOUR = "#17643a";
    static final String DENIED_COLOUR = "#a4161a";
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

    /** One hour of the chart: its start, the connections allowed and the denials in it. */
    record Hour(Instant start, long allowed, long denied) {
    }

    private HourlyChart() {
    }

    /**
     * The chart as an {@code <svg>} element.
     *
     * @param id    unique on the page; prefixes the ids of the title and description
     * @param title what the chart shows, e.g. "Egress of Acme, last 24 hours"
     * @param hours the hours in order, oldest first
     */
    static String svg(String id, String title, List<Hour> hours) {
        long max = hours.stream().mapToLong(h -> Math.max(h.allowed(), h.denied())).max().orElse(0);
        long allowed = hours.stream().mapToLong(Hour::allowed).sum();
        long denied = hours.stream().mapToLong(Hour::denied).sum();
        String safeId = escape(id);
        StringBuilder svg = new StringBuilder(8192);
        svg.append("<svg class=\"chart\" id=\"").append(safeId).append("\" role=\"img\" viewBox=\"0 0 ")
                .append(WIDTH).append(' ').append(HEIGHT).append("\" preserveAspectRatio=\"xMinYMin meet\"")
                .append(" xmlns=\"http://www.w3.org/2000/svg\" aria-labelledby=\"").append(safeId).append("-title ")
                .append(safeId).append("-desc\">");
        svg.append("<title id=\"").append(safeId).append("-title\">").append(escape(title)).append("</title>");
        svg.append("<desc id=\"").append(safeId).append("-desc\">").append(escape(description(hours, allowed,
                denied))).append("</desc>");
        legend(svg);
        long top = niceCeiling(max);
        axes(svg, top, max == 0);
        if (max == 0) {
            svg.append("<text class=\"chart-note\" x=\"").append(LEFT + plotWidth() / 2).append("\" y=\"")
                    .append(TOP + PLOT_HEIGHT / 2).append("\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555e69\">")
                    .append(hours.isEmpty() ? "No hourly figures." : "No connections and no denials in these hours.")
                    .append("</text>");
        }
        double slot = hours.isEmpty() ? plotWidth() : (double) plotWidth() / hours.size();
        double bar = slot * 0.38;
        for (int i = 0; i < hours.size(); i++) {
            Hour h = hours.get(i);
            double x = LEFT + i * slot + slot * 0.12;
            if (max > 0) {
                bar(svg, "allowed", ALLOWED_COLOUR, h, h.allowed(), x, bar, top);
                bar(svg, "denied", DENIED_COLOUR, h, h.denied(), x + bar, bar, top);
            }
            if (i % 3 == 0) {
                svg.append("<text class=\"hour\" x=\"").append(fmt(LEFT + i * slot + slot / 2)).append("\" y=\"")
                        .append(HEIGHT - 8).append("\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555e69\">")
                        .append(HOUR.format(h.start())).append("</text>");
            }
        }
        return svg.append("</svg>").toString();
    }

    /** The bar height in the plot for {@code value} on an axis that ends at {@code top}. */
    static double barHeight(long value, long top) {
        return top <= 0 ? 0 : Math.round(value * (double) PLOT_HEIGHT / top * 10) / 10.0;
    }

    /** The value axis' end: the smallest 1, 2 or 5 × 10ⁿ at or above {@code max} (at least 1). */
    static long niceCeiling(long max) {
        long step = 1;
        while (true) {
            for (long m : new long[]{1, 2, 5}) {
                if (m * step >= max) {
                    return m * step;
                }
            }
            if (step > Long.MAX_VALUE / 100) {
                return max;
            }
            step *= 10;
        }
    }

    private static void bar(StringBuilder svg, String series, String colour, Hour h, long value, double x,
                            double width, long top) {
        double height = barHeight(value, top);
        String label = HOUR.format(h.start()) + "–" + HOUR.format(h.start().plusSeconds(3600)) + " UTC: " + value
                + (series.equals("allowed") ? " allowed" : " denied");
        svg.append("<rect class=\"bar ").append(series).append("\" data-hour=\"").append(h.start())
                .append("\" data-value=\"").append(value).append("\" x=\"").append(fmt(x)).append("\" y=\"")
                .append(fmt(TOP + PLOT_HEIGHT - height)).append("\" width=\"").append(fmt(width))
                .append("\" height=\"").append(fmt(height)).append("\" fill=\"").append(colour).append("\"><title>")
                .append(escape(label)).append("</title></rect>");
    }

    private static void axes(StringBuilder svg, long top, boolean empty) {
        int bottom = TOP + PLOT_HEIGHT;
        svg.append("<g class=\"axis\" font-size=\"11\" fill=\"#555e69\">");
        List<Long> ticks = empty ? List.of(0L)
                : top % 2 == 0 ? List.of(0L, top / 2, top) : List.of(0L, top); // half of 1 is no whole number
        for (long tick : ticks) {
            double y = bottom - barHeight(tick, top);
            svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"")
                    .append(fmt(y)).append("\" y2=\"").append(fmt(y)).append("\" stroke=\"#d5dae1\"/>");
            svg.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(fmt(y + 4))
                    .append("\" text-anchor=\"end\">").append(tick).append("</text>");
        }
        svg.append("</g>");
    }

    private static void legend(StringBuilder svg) {
        svg.append("<g class=\"legend\" font-size=\"12\" fill=\"#1b1f24\">")
                .append("<rect x=\"").append(LEFT).append("\" y=\"6\" width=\"12\" height=\"12\" fill=\"")
                .append(ALLOWED_COLOUR).append("\"/><text x=\"").append(LEFT + 17)
                .append("\" y=\"16\">Allowed connections</text>")
                .append("<rect x=\"").append(LEFT + 170).append("\" y=\"6\" width=\"12\" height=\"12\" fill=\"")
                .append(DENIED_COLOUR).append("\"/><text x=\"").append(LEFT + 187).append("\" y=\"16\">Denials</text>")
                .append("</g>");
    }

    private static String description(List<Hour> hours, long allowed, long denied) {
        if (hours.isEmpty()) {
            return "No hourly figures.";
        }
        String span = "From " + HOUR.format(hours.get(0).start()) + " to "
                + HOUR.format(hours.get(hours.size() - 1).start().plusSeconds(3600)) + " UTC";
        if (allowed == 0 && denied == 0) {
            return span + ": no connections and no denials.";
        }
        Hour busiest = hours.stream().max(java.util.Comparator.comparingLong(h -> h.allowed() + h.denied()))
                .orElseThrow();
        return span + ": " + allowed + " allowed connections and " + denied + " denials in total; the busiest hour, "
                + HOUR.format(busiest.start()) + " UTC, had " + busiest.allowed() + " allowed and " + busiest.denied()
                + " denied.";
    }

    private static int plotWidth() {
        return WIDTH - LEFT - RIGHT;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** XML text and attribute escaping. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c < 0x20 && c != '\t' && c != '\n' ? ' ' : c);
            }
        }
        return out.toString();
    }
}
