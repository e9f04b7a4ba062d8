package io.trimus.run.service.company;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.run.repository.company.Company;
import io.trimus.run.repository.company.CompanyRepository;
import io.trimus.run.service.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/** Creates and finds companies, the tenants of Trimus. */
@ApplicationScoped
public class CompanyService {
    private final CompanyRepository companies;
    private final AuditLog audit;

    CompanyService(CompanyRepository companies, AuditLog audit) {
        this.companies = companies;
        this.audit = audit;
    }

    @TenantTransaction
    public Uni<Company> create(String name) {
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty() || trimmed.length() > 200) {
            return Uni.createFrom().failure(ProblemException.invalid("name", "must be 1 to 200 characters"));
        }
        Company company = Company.named(trimmed);
        return companies.persist(company)
                .call(created -> audit.record(created.id, AuditRecord.COMPANY_CREATED,
                        new AuditRecord.Target("company", created.id.toString(), created.name), AuditLog.details()));
    }

    /** The company, or a 404 problem. */
    @TenantTransaction
    public Uni<Company> get(UUID id) {
        return companies.findById(id)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("company", id));
    }

    /**
     * A page of companies in creation order, those after the company {@code after} when given; a 400 problem on
     * {@code after} when it names no company (a client must page with an id it received).
     */
    @TenantTransaction
    public Uni<List<Company>> page(UUID after, int limit) {
        return pageAmong(null, after, limit);
    }

    /** Like {@link #page}, among {@code among} only when it is not null (the companies a caller belongs to). */
    @TenantTransaction
    public Uni<List<Company>> pageAmong(List<UUID> among, UUID after, int limit) {
        if (after == null) {
            return among == null ? companies.page(null, limit) : companies.pageAmong(among, null, limit);
        }
        return companies.findById(after)
                .onItem().ifNull().failWith(() -> ProblemException.invalid("after",
                        "must be the id of a company from the previous page; " + after + " does not exist"))
                .flatMap(last -> among == null ? companies.page(last, limit)
                        : companies.pageAmong(among, last, limit));
    }
}
