package io.trimus.adapter.container;

/**
 * What an agent's {@code pids_limit} (processes and threads of the sandbox) becomes in the host's pids cgroup under
 * gVisor. The host sees gVisor's own kernel (the Sentry: about 50 threads idle) and, on the ptrace platform, about 7
 * host threads per sandbox task (measured: 51 host pids for one shell, 138 for 10 more processes, 357 for 40); a
 * runc-sized limit would let a gVisor sandbox start barely a handful of processes and stop it as a whole at the next
 * (exit 2, no output). So the host limit is {@value #SENTRY} + {@value #PER_TASK} × pids_limit: a sandbox runs as many
 * processes as under runc, and a fork bomb still meets a bound (it ends the whole sandbox rather than failing a fork;
 * docs/adapters.md, "gVisor").
 */
public final class GvisorPids {
    /** Host threads of the Sentry itself, with room. */
    static final long SENTRY = 64;
    /** Host threads per sandbox task on the ptrace platform (7 measured), with room. */
    static final long PER_TASK = 8;

    private GvisorPids() {
    }

    /** The host pids limit for a gVisor sandbox allowed {@code pidsLimit} tasks of its own (0 or less: unlimited). */
    public static long hostLimit(long pidsLimit) {
        if (pidsLimit <= 0) {
            return pidsLimit;
        }
        return pidsLimit > (Long.MAX_VALUE - SENTRY) / PER_TASK ? Long.MAX_VALUE : SENTRY + PER_TASK * pidsLimit;
    }
}
