package io.trimus.adapter.local;

import io.trimus.adapter.run.OutputReader;
import io.trimus.events.secrets.Redactor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything decided about one host-process run before it starts.
 *
 * @param argv      the resolved binary first
 * @param env       the child's whole environment
 * @param directory the agent's home, the child's working directory
 * @param timeout   wall-clock limit; the process tree is killed when it passes
 * @param redactor  masks the run's secrets in what it reports
 * @param notes     policy decisions reported with RUNNING
 * @param output    reads the CLI's output (answer and usage) into the terminal report; null reads nothing
 */
public record LocalLaunch(List<String> argv, Map<String, String> env, Path directory, Duration timeout,
                          Redactor redactor, List<String> notes, OutputReader output) {

    public LocalLaunch {
        argv = List.copyOf(argv);
        env = Map.copyOf(env);
        notes = List.copyOf(notes);
        output = output == null ? OutputReader.NONE : output;
    }

    /** Never prints the environment: it holds the run's secrets. */
    @Override
    public String toString() {
        return "LocalLaunch[binary=" + argv.get(0) + ", directory=" + directory + ", timeout=" + timeout + "]";
    }
}
