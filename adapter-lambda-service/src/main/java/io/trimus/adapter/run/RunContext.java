package io.trimus.adapter.run;

import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;

import java.util.LinkedHashMap;
import java.util.Map;

/** The Trimus context every agent gets in its environment: agent, run, issue and input (DESIGN.md §5). */
public final class RunContext {
    private RunContext() {
    }

    /** {@code TRIMUS_AGENT_ID}, {@code TRIMUS_RUN_ID}, {@code TRIMUS_ISSUE_ID/TITLE/BODY} and {@code TRIMUS_INPUT}, when present. */
    public static Map<String, String> env(RunRequested run) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TRIMUS_AGENT_ID", String.valueOf(run.agentId()));
        env.put("TRIMUS_RUN_ID", String.valueOf(run.runId()));
        IssueRef issue = run.issue();
        if (issue != null) {
            putIfPresent(env, "TRIMUS_ISSUE_ID", issue.id());
            putIfPresent(env, "TRIMUS_ISSUE_TITLE", issue.title());
            putIfPresent(env, "TRIMUS_ISSUE_BODY", issue.body());
        }
        putIfPresent(env, "TRIMUS_INPUT", run.input());
        return env;
    }

    private static void putIfPresent(Map<String, String> env, String name, String value) {
        if (value != null) {
            env.put(name, value);
        }
    }
}
