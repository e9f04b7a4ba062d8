package io.trimus.admin.view;

import io.quarkus.qute.TemplateExtension;

import java.util.Locale;

/** Small text helpers the templates use, e.g. {@code {run.status.lower}} for a CSS class. */
@TemplateExtension
public final class TemplateExtensions {
    private TemplateExtensions() {
    }

    /** Lower case, for CSS class names built from values. */
    static String lower(String text) {
        return text == null ? "" : text.toLowerCase(Locale.ROOT);
    }

    /** The first 8 characters of an id: enough to tell runs apart in a list. */
    static String abbrev(String id) {
        return id == null || id.length() <= 8 ? id : id.substring(0, 8);
    }
}
