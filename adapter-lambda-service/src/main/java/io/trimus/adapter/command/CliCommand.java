package io.trimus.adapter.command;

import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.CliAdapterConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * The argv of one CLI run, decided in one place for the sandboxed and the host-process adapters: the agent's model and
 * allow-listed flags (less any blanket shell grant the guardrail drops), JSON output, the dangerous-permissions flag
 * only if the guardrail lets it through, and the prompt last, after {@code --}, so a prompt that starts with a dash
 * can never be read as a flag.
 *
 * @param argv  the command line, binary first
 * @param notes what the guardrail decided, for the run (empty when nothing was dropped)
 */
public record CliCommand(List<String> argv, List<String> notes) {
    /** The log and note tag of a dropped dangerous flag (the seed's SEC-015). */
    public static final String SEC_015 = "SEC-015";
    /** Codex's flag to run outside a git repository; every codex run gets it. */
    public static final String SKIP_GIT_REPO_CHECK = "--skip-git-repo-check";

    public CliCommand {
        argv = List.copyOf(argv);
        notes = List.copyOf(notes);
    }

    /**
     * Builds the command.
     *
     * @param binary          what to execute: {@code claude} in a sandbox image, or the resolved host path
     * @param forbidDangerous TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS is truthy
     */
    public static CliCommand build(CliAdapterConfig agent, String binary, String prompt, boolean forbidDangerous) {
        AgentCli cli = agent.cli();
        List<String> argv = new ArrayList<>();
        argv.add(binary);
        if (cli == AgentCli.CLAUDE) {
            argv.addAll(List.of("-p", "--output-format", "json"));
        } else {
            // a run's workspace is no git repository (a fresh tmpfs, or a host directory the operator chose): without
            // this Codex refuses to start
            argv.addAll(List.of("exec", "--json", SKIP_GIT_REPO_CHECK));
        }
        if (agent.model() != null) {
            argv.add("--model");
            argv.add(agent.model());
        }
        List<String> notes = new ArrayList<>();
        List<String> extra = forbidDangerous ? BlanketShellGrants.drop(cli, agent.extraArgs(), notes)
                : agent.extraArgs();
        // Codex refuses a flag given twice, and it is always given above
        extra.stream().filter(arg -> cli != AgentCli.CODEX || !arg.equals(SKIP_GIT_REPO_CHECK)).forEach(argv::add);
        if (agent.dangerouslySkipPermissions()) {
            if (forbidDangerous) {
                notes.add(SEC_015 + ": " + cli.dangerousFlag() + " was dropped because"
                        + " TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS is set; the CLI ran with its permission checks");
            } else {
                argv.add(cli.dangerousFlag());
            }
        }
        argv.add("--");
        argv.add(prompt);
        return new CliCommand(argv, notes);
    }

    /** This command with {@code args} right after the binary (options that apply to the whole CLI). */
    public CliCommand withLeadingArgs(List<String> args) {
        List<String> longer = new ArrayList<>(argv.subList(0, 1));
        longer.addAll(args);
        longer.addAll(argv.subList(1, argv.size()));
        return new CliCommand(longer, notes);
    }

    /** Whether a setting of TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS counts as true: 1, true, yes or on. */
    public static boolean truthy(String value) {
        if (value == null) {
            return false;
        }
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "1", "true", "yes", "on" -> true;
            default -> false;
        };
    }
}
