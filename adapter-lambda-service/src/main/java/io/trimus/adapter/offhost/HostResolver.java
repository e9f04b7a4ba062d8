package io.trimus.adapter.offhost;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Resolves the host of a call that leaves the host (a lambda endpoint, an A2A peer), once per call; a test swaps in
 * fixed answers. Blocking: called on a worker thread or the run's own thread, never on an event loop.
 */
@FunctionalInterface
public interface HostResolver {
    /** Every address of {@code host}, as {@link InetAddress#getAllByName} answers. */
    InetAddress[] resolve(String host) throws UnknownHostException;
}
