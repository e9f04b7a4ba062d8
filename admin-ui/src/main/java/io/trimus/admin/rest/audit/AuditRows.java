package io.trimus.admin.rest.audit;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.admin.client.AuditApi.AuditRecord;
import io.trimus.admin.client.CompanyNames;
import io.trimus.admin.view.Times;
import io.trimus.admin.view.Views;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Audit records as the audit pages show them: one line of text per part, the details as {@code key=value} pairs. */
final class AuditRows {
    private AuditRows() {
    }

    /** The rows of a company's page (no company column). */
    static List<Views.AuditRow> of(List<AuditRecord> records) {
        return records.stream().map(r -> row(r, null)).toList();
    }

    /** The rows of the operators' page, each with its company's name ("platform" for the platform's records). */
    static List<Views.AuditRow> withCompanies(List<AuditRecord> records, CompanyNames names) {
        return records.stream().map(r -> row(r, r.companyId() == null ? "platform" : names.of(r.companyId())))
                .toList();
    }

    static Views.AuditRow row(AuditRecord r, String company) {
        String actorKind = r.actor() == null ? "" : text(r.actor().kind());
        String actor = r.actor() == null ? "" : text(r.actor().name());
        String target = r.target() == null ? "" : (text(r.target().type()) + " "
                + (r.target().name() != null ? r.target().name() : text(r.target().id()))).strip();
        return new Views.AuditRow(String.valueOf(r.id()), Times.utc(r.occurredAt()), Times.iso(r.occurredAt()),
                actorKind, actor, company, r.companyId() == null ? null : r.companyId().toString(), text(r.action()),
                target, details(r.details()), r.source() == null || r.source().ip() == null ? "—" : r.source().ip());
    }

    /** {@code {"role":"viewer","hosts":["a","b"]}} as {@code role=viewer hosts=["a","b"]}: strings bare, the rest JSON. */
    static String details(JsonNode details) {
        if (details == null || !details.isObject()) {
            return details == null || details.isNull() ? "" : details.toString();
        }
        List<String> pairs = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = details.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            pairs.add(f.getKey() + "=" + (f.getValue().isTextual() ? f.getValue().asText() : f.getValue().toString()));
        }
        return String.join(" ", pairs);
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }
}
