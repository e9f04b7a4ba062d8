package io.trimus.adapter.support;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Every log record the app under test writes while installed (the app shares this JVM's log manager), formatted with
 * its parameters, so a test can look for a line, or prove a value never appeared.
 */
public final class CapturedLogs extends Handler implements AutoCloseable {
    private final List<String> lines = new ArrayList<>();

    private CapturedLogs() {
    }

    /** Starts capturing at the root logger. */
    public static CapturedLogs install() {
        CapturedLogs logs = new CapturedLogs();
        Logger.getLogger("").addHandler(logs);
        return logs;
    }

    @Override
    public void publish(LogRecord record) {
        String message = record.getMessage();
        Object[] params = record.getParameters();
        if (params != null) {
            try {
                message = String.format(message, params);
            } catch (RuntimeException notPrintf) {
                message = java.text.MessageFormat.format(message, params);
            }
        }
        StringBuilder line = new StringBuilder(record.getLoggerName() + " " + record.getLevel() + " " + message);
        for (Throwable t = record.getThrown(); t != null; t = t.getCause()) {
            line.append(" | ").append(t);
        }
        synchronized (lines) {
            lines.add(line.toString());
        }
    }

    /** The lines captured so far. */
    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void flush() {
        // nothing buffered
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}
