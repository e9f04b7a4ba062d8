package io.trimus.testing;

import java.io.IOException;

/** The child JVMs' lifeline: their parent holds their stdin, so EOF means "shut down" (also when the parent died). */
public final class Stdin {
    private Stdin() {
    }

    /**
     * Exits the JVM (running its shutdown hooks, which stop the server) once stdin closes; watches from a
     * non-daemon thread so the JVM lives exactly as long as its parent holds the pipe.
     */
    static void exitWhenClosed() {
        Thread watcher = new Thread(() -> {
            awaitClose();
            System.out.println("stdin closed: exiting");
            System.exit(0);
        }, "stdin-watch");
        watcher.start();
    }

    /** Blocks until stdin reaches end of file. */
    static void awaitClose() {
        byte[] buffer = new byte[256];
        try {
            while (System.in.read(buffer) != -1) {
                // input is ignored: only its end matters
            }
        } catch (IOException e) {
            // a broken stdin is as good as a closed one
        }
    }
}
