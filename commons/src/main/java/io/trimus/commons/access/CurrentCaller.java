package io.trimus.commons.access;

import io.trimus.events.AuditRecord;
import io.trimus.events.auth.Caller;
import jakarta.enterprise.context.RequestScoped;

import java.util.Optional;
import java.util.UUID;

/** The caller of the request being served, as {@link AccessFilter} established it; empty for anonymous endpoints. */
@RequestScoped
public class CurrentCaller {
    private Caller caller;
    private boolean service;
    private UUID company;
    private AuditRecord.Source source = AuditRecord.Source.NONE;
    private Admission admission;

    void set(Caller caller) {
        this.caller = caller;
    }

    void setAdmission(Admission admission) {
        this.admission = admission;
    }

    /** What the caller was admitted with, for {@link StreamAccess} to ask again; null before or without admission. */
    Admission admission() {
        return admission;
    }

    void setSource(AuditRecord.Source source) {
        this.source = source;
    }

    void setCompany(UUID company) {
        this.company = company;
    }

    void setService() {
        this.service = true;
    }

    /** The caller, if the request carried a valid user or token credential. */
    public Optional<Caller> get() {
        return Optional.ofNullable(caller);
    }

    /** The caller, for endpoints that require one (never empty behind any level but ANYONE and SERVICE). */
    public Caller require() {
        if (caller == null) {
            throw new IllegalStateException("no caller on an endpoint that requires one");
        }
        return caller;
    }

    /** The company the request names and the caller was admitted to by its role there (not set for operators). */
    public Optional<UUID> company() {
        return Optional.ofNullable(company);
    }

    /** Where the request came from: peer address and the claimed X-Forwarded-For and User-Agent, bounded. */
    public AuditRecord.Source source() {
        return source;
    }

    /** Who the request acts for in an audit record: the user or token, Trimus's service, or nobody yet (null). */
    public AuditRecord.Actor actor() {
        if (caller != null) {
            return new AuditRecord.Actor(Caller.USER.equals(caller.kind()) ? AuditRecord.Actor.USER
                    : AuditRecord.Actor.TOKEN, caller.id(), caller.name());
        }
        return service ? new AuditRecord.Actor(AuditRecord.Actor.SERVICE, null, "trimus-service") : null;
    }

    /**
     * How a caller was let in: the credential it presented (kept for this request only, unless a stream it opens holds
     * it to ask again), the endpoint's level and the company the request named (null when it named none).
     */
    record Admission(String credential, Access level, String namedCompany) {
    }

    /** True when Trimus's own service called. */
    public boolean isService() {
        return service;
    }
}
