package io.trimus.commons.rows;

import io.trimus.commons.access.CurrentCaller;
import io.trimus.events.auth.Caller;

import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The companies a transaction may see, as the two transaction-local settings the row-level security policies read:
 * {@code trimus.all_companies} ({@code on} or empty) and {@code trimus.company_ids} (comma-separated ids).
 */
public record RowVisibility(boolean allCompanies, Set<UUID> companies) {
    /** The setting that opens every company's rows. */
    public static final String ALL_COMPANIES_SETTING = "trimus.all_companies";
    /** The setting that lists the companies whose rows are visible. */
    public static final String COMPANY_IDS_SETTING = "trimus.company_ids";

    public RowVisibility {
        companies = Set.copyOf(companies);
    }

    /** No company: what a transaction without a caller gets, so forgetting the scope shows nothing. */
    public static RowVisibility none() {
        return new RowVisibility(false, Set.of());
    }

    /** Every company's rows. */
    public static RowVisibility all() {
        return new RowVisibility(true, Set.of());
    }

    /** The given companies' rows. */
    public static RowVisibility of(Set<UUID> companies) {
        return new RowVisibility(false, companies);
    }

    /** What the current request's caller may see (see {@link Rows#CALLER}). */
    public static RowVisibility of(CurrentCaller current) {
        if (current.isService()) {
            return all();
        }
        Caller caller = current.get().orElse(null);
        if (caller == null) {
            return none();
        }
        if (caller.operator()) {
            return all();
        }
        if (current.company().isPresent()) {
            return of(Set.of(current.company().get()));
        }
        return of(caller.companies().stream().map(Caller.Membership::companyId).collect(Collectors.toSet()));
    }

    /** The value of {@link #ALL_COMPANIES_SETTING}. */
    String allCompaniesSetting() {
        return allCompanies ? "on" : "";
    }

    /** The value of {@link #COMPANY_IDS_SETTING}, ids sorted so equal scopes give equal settings. */
    String companyIdsSetting() {
        return allCompanies ? "" : new TreeSet<>(companies).stream().map(UUID::toString)
                .collect(Collectors.joining(","));
    }
}
