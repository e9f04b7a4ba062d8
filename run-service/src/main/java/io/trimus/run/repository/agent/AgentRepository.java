package io.trimus.run.repository.agent;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** Agents, always looked up within their company. */
@ApplicationScoped
public class AgentRepository implements PanacheRepositoryBase<Agent, UUID> {

    /** The agent if it exists and belongs to the company, else null. */
    public Uni<Agent> findInCompany(UUID companyId, UUID agentId) {
        return find("id = ?1 and companyId = ?2", agentId, companyId).firstResult();
    }

    /** Those of the given agents that exist and belong to the company. */
    public Uni<List<Agent>> inCompany(UUID companyId, Collection<UUID> agentIds) {
        return list("companyId = ?1 and id in ?2", companyId, agentIds);
    }

    /** The company's agents, newest first. */
    public Uni<List<Agent>> listInCompany(UUID companyId) {
        return list("companyId = ?1 order by createdAt desc", companyId);
    }
}
