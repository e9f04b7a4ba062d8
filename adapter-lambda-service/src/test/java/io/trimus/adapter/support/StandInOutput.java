package io.trimus.adapter.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the CLI stand-in (TestImages.cliStandIn) printed, parsed: {@code argv[i]=…} lines into argv, {@code env:NAME=…}
 * lines into the environment, the rest as plain lines.
 *
 * @param argv  the arguments after the program name
 * @param env   the environment it ran with
 * @param lines every line of the output
 */
public record StandInOutput(List<String> argv, Map<String, String> env, List<String> lines) {

    /** Parses the run output. */
    public static StandInOutput parse(String output) {
        List<String> argv = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        List<String> lines = output == null ? List.of() : List.of(output.split("\n"));
        for (String line : lines) {
            if (line.startsWith("argv[")) {
                argv.add(line.substring(line.indexOf("]=") + 2));
            } else if (line.startsWith("env:") && line.indexOf('=') > 4) {
                env.put(line.substring(4, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
            }
        }
        return new StandInOutput(List.copyOf(argv), Map.copyOf(env), lines);
    }

    /** The value printed after {@code prefix} on the first line starting with it, or null. */
    public String after(String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).findFirst()
                .orElse(null);
    }
}
