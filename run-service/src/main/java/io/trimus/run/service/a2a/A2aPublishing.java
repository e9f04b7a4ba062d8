package io.trimus.run.service.a2a;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.run.repository.agent.Agent;
import io.trimus.run.repository.agent.AgentRepository;
import io.trimus.run.service.agent.AgentService;
import io.trimus.run.service.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/** Which agents a company serves over A2A: publishing and withdrawing them (audited), and finding a published one. */
@ApplicationScoped
public class A2aPublishing {
    private final AgentService agents;
    private final AgentRepository agentRows;
    private final AuditLog audit;

    A2aPublishing(AgentService agents, AgentRepository agentRows, AuditLog audit) {
        this.agents = agents;
        this.agentRows = agentRows;
        this.audit = audit;
    }

    /** Publishes or withdraws the agent; a change is audited (agent.a2a_published), a repeat changes nothing. */
    @TenantTransaction
    public Uni<Agent> publish(UUID companyId, UUID agentId, boolean published) {
        return agents.get(companyId, agentId).call(agent -> {
            if (agent.a2aPublished == published) {
                return Uni.createFrom().voidItem();
            }
            agent.a2aPublished = published;
            return audit.record(companyId, AuditRecord.AGENT_A2A_PUBLISHED,
                    new AuditRecord.Target("agent", agent.id.toString(), agent.name),
                    AuditLog.details("published", published));
        });
    }

    /**
     * The agent if it exists in the company and is published; otherwise a 404 problem that reads the same whether the
     * agent does not exist or is not published (the card is open to anyone: it must not tell which agents exist).
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Agent> published(UUID companyId, UUID agentId) {
        return agentRows.findInCompany(companyId, agentId)
                .map(agent -> agent != null && agent.a2aPublished ? agent : null)
                .onItem().ifNull().failWith(() -> new ProblemException(404, "Not found", "no agent " + agentId
                        + " of company " + companyId + " is published over A2A", null));
    }
}
