package io.trimus.admin.rest.account;

import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.view.Times;
import io.trimus.admin.view.Views;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;

/** API tokens as the tokens pages show them: rows without values, and the expiry a form asks for. */
final class TokensPage {
    private TokensPage() {
    }

    static List<Views.TokenRow> rows(List<IdentityApi.Token> tokens) {
        return tokens.stream().map(t -> new Views.TokenRow(t.id().toString(), t.name(),
                t.role() == null ? "operator" : t.role(), t.createdBy(), Times.utc(t.createdAt()),
                Times.utc(t.expiresAt()), Times.utc(t.lastUsedAt()), Times.utc(t.revokedAt()), t.active())).toList();
    }

    /** The end of the chosen day (UTC) of an {@code <input type=date>}, or null for no expiry. */
    static Instant expiry(String day) {
        if (day == null || day.isBlank()) {
            return null;
        }
        try {
            return LocalDate.parse(day.strip()).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new BackendException(io.trimus.admin.client.Backend.RUN_SERVICE, BackendException.Kind.REFUSED,
                    "The expiry date must be a date like 2027-01-31.", "expires_at", e);
        }
    }

    static Views.Created created(IdentityApi.CreatedToken token) {
        return new Views.Created(token.name(), token.token(), Times.utc(token.expiresAt()));
    }
}
