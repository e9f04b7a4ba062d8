package io.trimus.adapter.a2a;

import io.a2a.spec.Artifact;
import io.a2a.spec.Part;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TextPart;
import io.trimus.events.OutputTail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text of a peer task's artifacts as a run holds it while it follows the task (streamed artifacts, chunks appended
 * to them, the artifacts of a task the peer answers with): text parts only, in the order the peer gave them, and at
 * most TRIMUS_RUN_OUTPUT_MAX_BYTES of text (UTF-8, artifact ids counted) and {@link #MAX_PIECES} artifacts and parts
 * together per run, however much the peer sends. Past either bound the oldest text is let go, so what is held is the
 * end of the run's output (the part a run's output tail keeps anyway), and {@link #cut()} says that happened.
 * Artifact ids longer than {@link #MAX_ID} characters are held by their first {@link #MAX_ID}. One run's thread only.
 */
final class HeldArtifacts {
    /** Artifacts and text parts held at most, together. */
    static final int MAX_PIECES = 1000;
    /** The characters of an artifact id that tell it apart. */
    static final int MAX_ID = 256;

    private final int maxBytes;
    /** Per artifact id, its text parts in order; artifacts in the order they first came. */
    private final LinkedHashMap<String, ArrayDeque<String>> texts = new LinkedHashMap<>();
    private long bytes;
    private int parts;
    private boolean seen;
    private boolean cut;

    HeldArtifacts(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The artifacts of one answer, held under the same bounds. */
    static HeldArtifacts of(int maxBytes, List<Artifact> artifacts) {
        HeldArtifacts held = new HeldArtifacts(maxBytes);
        if (artifacts != null) {
            artifacts.forEach(held::put);
        }
        return held;
    }

    /** An artifact as a whole: it replaces the text held under its id, in that artifact's place. */
    void put(Artifact artifact) {
        String id = id(artifact);
        ArrayDeque<String> old = texts.get(id);
        if (old != null) {
            old.forEach(text -> bytes -= utf8(text));
            parts -= old.size();
            old.clear();
        }
        add(id, artifact.parts());
    }

    /** A streamed artifact: appended to the one held under its id when the peer says so, else put. */
    void merge(TaskArtifactUpdateEvent update) {
        if (update.getArtifact() == null) {
            return;
        }
        if (Boolean.TRUE.equals(update.isAppend())) {
            add(id(update.getArtifact()), update.getArtifact().parts());
        } else {
            put(update.getArtifact());
        }
    }

    /** Whether no artifact came at all. */
    boolean isEmpty() {
        return !seen;
    }

    /** Whether text was let go to stay within the bounds. */
    boolean cut() {
        return cut;
    }

    /** Bytes held now: text and artifact ids. */
    long bytes() {
        return bytes;
    }

    /** The text parts held, joined by a newline; behind the output's truncation marker when text was let go. */
    String text() {
        List<String> all = new ArrayList<>();
        texts.values().forEach(all::addAll);
        String text = String.join("\n", all);
        return cut ? OutputTail.TRUNCATED_MARKER + text : text;
    }

    /** The run's note when text was let go. */
    String cutNote() {
        return "the A2A peer's artifacts held more than the " + maxBytes + " bytes of text"
                + " (TRIMUS_RUN_OUTPUT_MAX_BYTES) or the " + MAX_PIECES + " artifacts and parts a run keeps; their"
                + " beginning was let go, the output is their end";
    }

    private void add(String id, List<Part<?>> added) {
        seen = true;
        entry(id);
        if (added != null) {
            for (Part<?> part : added) {
                if (part instanceof TextPart text && text.getText() != null) {
                    entry(id).addLast(text.getText());   // looked up again: trimming may have let go of it
                    bytes += utf8(text.getText());
                    parts++;
                    trim();
                }
            }
        }
        trim();
    }

    private ArrayDeque<String> entry(String id) {
        ArrayDeque<String> held = texts.get(id);
        if (held == null) {
            held = new ArrayDeque<>();
            texts.put(id, held);
            bytes += id.length();
        }
        return held;
    }

    private boolean over() {
        return bytes > maxBytes || texts.size() + parts > MAX_PIECES;
    }

    /** Lets go of the oldest text until the bounds hold; a part that straddles the byte bound keeps its end. */
    private void trim() {
        Iterator<Map.Entry<String, ArrayDeque<String>>> oldest = texts.entrySet().iterator();
        while (over() && oldest.hasNext()) {
            Map.Entry<String, ArrayDeque<String>> first = oldest.next();
            ArrayDeque<String> held = first.getValue();
            while (!held.isEmpty() && over()) {
                cut = true;
                String head = held.pollFirst();
                long size = utf8(head);
                long excess = bytes - maxBytes;
                bytes -= size;
                parts--;
                if (excess > 0 && excess < size && texts.size() + parts < MAX_PIECES) {
                    String end = tail(head, size - excess);
                    held.addFirst(end);
                    bytes += utf8(end);
                    parts++;
                }
            }
            if (held.isEmpty() && over()) {
                oldest.remove();
                bytes -= first.getKey().length();
                cut = true;
            }
        }
    }

    private static String id(Artifact artifact) {
        String id = artifact.artifactId() == null ? "" : artifact.artifactId();
        return id.length() <= MAX_ID ? id : id.substring(0, MAX_ID);
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The last at most {@code keep} bytes of {@code text} (UTF-8), never starting inside a character. */
    private static String tail(String text, long keep) {
        byte[] all = text.getBytes(StandardCharsets.UTF_8);
        int start = (int) (all.length - keep);
        while (start < all.length && (all[start] & 0xC0) == 0x80) {
            start++;
        }
        return new String(all, start, all.length - start, StandardCharsets.UTF_8);
    }
}
