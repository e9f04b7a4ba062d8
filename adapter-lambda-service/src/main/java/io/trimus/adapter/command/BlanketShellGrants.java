package io.trimus.adapter.command;

import io.trimus.events.adapter.AgentCli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The part of the SEC-015 guardrail that reads an agent's extra flags: grants that pre-approve every shell command are
 * the permission bypass under another name. For Claude Code that is an {@code --allowedTools} rule {@code Bash}
 * (bare), a {@code Bash(…)} rule whose pattern matches any command ({@code *}, {@code :*}, a leading wildcard) or
 * whose command is itself a way to run any command (a shell, an interpreter, {@code env}, {@code xargs}, …); for
 * Codex it is {@code --full-auto}, which runs every command without asking.
 */
public final class BlanketShellGrants {

    /** Commands that run whatever they are given: approving one of them approves every command. */
    private static final Set<String> LAUNCHERS = Set.of("sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh",
            "tcsh", "ash", "busybox", "env", "exec", "eval", "command", "builtin", "xargs", "sudo", "su", "doas",
            "nohup", "timeout", "nice", "ionice", "setsid", "stdbuf", "time", "watch", "script", "find", "awk",
            "python", "python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "tclsh");
    private static final String ALLOWED_TOOLS = "--allowedTools";
    private static final String CODEX_FULL_AUTO = "--full-auto";

    private BlanketShellGrants() {
    }

    /**
     * The agent's extra args without blanket shell grants, with one SEC-015 note per grant dropped.
     *
     * @param notes receives what was dropped and why
     */
    public static List<String> drop(AgentCli cli, List<String> extraArgs, List<String> notes) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < extraArgs.size(); i++) {
            String flag = extraArgs.get(i);
            if (cli == AgentCli.CODEX && flag.equals(CODEX_FULL_AUTO)) {
                notes.add(note(CODEX_FULL_AUTO + " was dropped: it runs every command without asking"));
                continue;
            }
            if (cli == AgentCli.CLAUDE && flag.equals(ALLOWED_TOOLS) && i + 1 < extraArgs.size()) {
                List<String> rules = rules(extraArgs.get(++i));
                List<String> safe = rules.stream().filter(rule -> !grantsEveryCommand(rule)).toList();
                rules.stream().filter(BlanketShellGrants::grantsEveryCommand).forEach(rule -> notes.add(note(
                        ALLOWED_TOOLS + " rule '" + rule + "' was dropped: it pre-approves every shell command")));
                if (!safe.isEmpty()) {
                    kept.add(flag);
                    kept.add(String.join(",", safe));
                }
                continue;
            }
            kept.add(flag);
        }
        return List.copyOf(kept);
    }

    /** True when a Claude Code permission rule lets the agent run any shell command unasked. */
    static boolean grantsEveryCommand(String rule) {
        String trimmed = rule.strip();
        int open = trimmed.indexOf('(');
        String tool = (open < 0 ? trimmed : trimmed.substring(0, open)).strip();
        if (!tool.equalsIgnoreCase("Bash")) {
            return false;
        }
        if (open < 0) {
            return true;
        }
        int close = trimmed.lastIndexOf(')');
        String pattern = (close > open ? trimmed.substring(open + 1, close) : trimmed.substring(open + 1)).strip();
        if (pattern.isEmpty() || pattern.startsWith("*") || pattern.startsWith(":")) {
            return true;
        }
        String command = pattern.split("[\\s:]", 2)[0];
        String base = command.substring(command.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return LAUNCHERS.contains(base) || base.matches("python[0-9.]*|node[0-9.]*|perl[0-9.]*|ruby[0-9.]*");
    }

    /**
     * Splits an {@code --allowedTools} value into its rules: separated by commas or blanks outside parentheses, since
     * a rule such as {@code Bash(git log:*)} contains a blank.
     */
    static List<String> rules(String value) {
        List<String> rules = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int depth = 0;
        for (char c : value.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')' && depth > 0) {
                depth--;
            }
            if (depth == 0 && (c == ',' || Character.isWhitespace(c))) {
                flush(current, rules);
            } else {
                current.append(c);
            }
        }
        flush(current, rules);
        return rules;
    }

    private static void flush(StringBuilder current, List<String> rules) {
        if (!current.isEmpty()) {
            rules.add(current.toString());
            current.setLength(0);
        }
    }

    private static String note(String what) {
        return CliCommand.SEC_015 + ": " + what + " because TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS is set";
    }
}
