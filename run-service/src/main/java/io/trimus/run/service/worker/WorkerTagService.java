package io.trimus.run.service.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.events.adapter.RemoteAdapterConfig;
import io.trimus.run.repository.worker.CompanyWorkerTag;
import io.trimus.run.repository.worker.CompanyWorkerTagRepository;
import io.trimus.run.service.audit.AuditLog;
import io.trimus.run.service.company.CompanyService;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/**
 * The operator's grants of worker tags to companies. A remote agent may name only a tag its company holds, checked when
 * the agent is written and again when each run is accepted, so a revoked grant stops new runs at once.
 */
@ApplicationScoped
public class WorkerTagService {
    private final CompanyWorkerTagRepository grants;
    private final CompanyService companies;
    private final AuditLog audit;

    WorkerTagService(CompanyWorkerTagRepository grants, CompanyService companies, AuditLog audit) {
        this.grants = grants;
        this.audit = audit;
        this.companies = companies;
    }

    /** Grants the tag to the company; granting it again changes nothing (the first grant's time stays). */
    @TenantTransaction
    public Uni<CompanyWorkerTag> grant(UUID companyId, String tag) {
        if (!isTag(tag)) {
            return Uni.createFrom().failure(badTag());
        }
        return companies.get(companyId)
                .call(company -> grants.grantIfAbsent(companyId, tag))
                .flatMap(company -> grants.grantOf(companyId, tag))
                .call(grant -> audit.record(companyId, AuditRecord.WORKER_TAG_GRANTED,
                        new AuditRecord.Target("worker_tag", null, tag), AuditLog.details()));
    }

    /** Revokes the grant: the company's remote agents on the tag can no longer be written or started. */
    @TenantTransaction
    public Uni<Void> revoke(UUID companyId, String tag) {
        if (!isTag(tag)) {
            return Uni.createFrom().failure(badTag());
        }
        return companies.get(companyId).flatMap(company -> grants.grantOf(companyId, tag))
                .onItem().ifNull().failWith(() -> new ProblemException(404, "Not found", "worker tag " + tag
                        + " is not granted to company " + companyId, null, null))
                .flatMap(grant -> grants.delete(grant))
                .call(() -> audit.record(companyId, AuditRecord.WORKER_TAG_REVOKED,
                        new AuditRecord.Target("worker_tag", null, tag), AuditLog.details()));
    }

    /** The company's grants, by tag. */
    @TenantTransaction
    public Uni<List<CompanyWorkerTag>> list(UUID companyId) {
        return companies.get(companyId).flatMap(company -> grants.listInCompany(companyId));
    }

    /**
     * Succeeds when the company holds the tag, else fails with a 400 problem naming
     * {@code adapter_config.worker_tag}. Joins the caller's session.
     */
    Uni<Void> requireGranted(UUID companyId, String tag) {
        return grants.grantOf(companyId, tag).flatMap(grant -> grant != null ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(notGranted(companyId, tag)));
    }

    /**
     * For a remote agent's config: succeeds when it names an A2A peer (no worker of ours runs it) or a tag the company
     * holds, else as {@link #requireGranted(UUID, String)}.
     */
    public Uni<Void> requireGrantedTagOf(UUID companyId, JsonNode remoteConfig) {
        RemoteAdapterConfig remote = RemoteAdapterConfig.parse(remoteConfig);
        return remote.toPeer() ? Uni.createFrom().voidItem() : requireGranted(companyId, remote.workerTag());
    }

    static ProblemException notGranted(UUID companyId, String tag) {
        return ProblemException.invalid("adapter_config.worker_tag", "\"" + tag + "\" is not granted to this"
                + " company: the operator grants worker tags with PUT /api/companies/" + companyId + "/worker-tags/"
                + tag);
    }

    private static boolean isTag(String tag) {
        return tag != null && RemoteAdapterConfig.TAG.matcher(tag).matches();
    }

    private static ProblemException badTag() {
        return ProblemException.invalid("tag", "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a"
                + " letter or digit");
    }
}
