package io.trimus.egress.sandbox.registration;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import io.trimus.egress.sandbox.Sandbox;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The stored sandbox registrations, one row per address. */
@ApplicationScoped
public class SandboxRegistrationRepository implements PanacheRepositoryBase<RegisteredSandbox, String> {

    /**
     * Registers {@code sandbox} at its address in one statement, so two concurrent claims of one address cannot both
     * win: a free address is taken; an address held by the same run (same company and agent) is updated, keeping its
     * container id when none is given and its registration time; an address held by another run is taken only when
     * that registration is older than {@code expiredBefore}. {@code masks} (null when none were sent) marks a run
     * holding masked secrets and keeps their sealed text for the other replicas; once marked, later registrations of
     * the same run keep the mark and, when they carry none, the stored masks.
     *
     * @return the stored registration, or null when another run holds the address
     */
    public Uni<RegisteredSandbox> claim(Sandbox sandbox, SealedMasks masks, Instant expiredBefore) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into egress.sandbox_registration as r "
                        + "(ip, company_id, agent_id, run_id, container_id, registered_at, masked, sealed_masks, "
                        + "masks_ca) values (?1, ?2, ?3, ?4, ?5, now(), ?7, ?8, ?9) on conflict (ip) do update set "
                        + "company_id = excluded.company_id, agent_id = excluded.agent_id, run_id = excluded.run_id, "
                        + "container_id = case when r.run_id = excluded.run_id "
                        + "then coalesce(excluded.container_id, r.container_id) else excluded.container_id end, "
                        + "registered_at = case when r.run_id = excluded.run_id "
                        + "then r.registered_at else excluded.registered_at end, "
                        + "masked = case when r.run_id = excluded.run_id "
                        + "then r.masked or excluded.masked else excluded.masked end, "
                        + "sealed_masks = case when r.run_id = excluded.run_id and excluded.sealed_masks is null "
                        + "then r.sealed_masks else excluded.sealed_masks end, "
                        + "masks_ca = case when r.run_id = excluded.run_id and excluded.sealed_masks is null "
                        + "then r.masks_ca else excluded.masks_ca end "
                        + "where (r.run_id = excluded.run_id and r.company_id = excluded.company_id "
                        + "and r.agent_id = excluded.agent_id) or r.registered_at < ?6 "
                        + "returning ip, company_id, agent_id, run_id, container_id, registered_at, masked, "
                        + "sealed_masks, masks_ca",
                        RegisteredSandbox.class)
                .setParameter(1, sandbox.ip())
                .setParameter(2, sandbox.companyId())
                .setParameter(3, sandbox.agentId())
                .setParameter(4, sandbox.runId())
                .setParameter(5, sandbox.containerId())
                .setParameter(6, expiredBefore)
                .setParameter(7, masks != null)
                .setParameter(8, masks == null ? null : masks.sealed())
                .setParameter(9, masks == null ? null : masks.ca())
                .getResultList())
                .map(rows -> rows.isEmpty() ? null : rows.get(0));
    }

    /** Names {@code origin} as the replica making the changes of the current transaction (see ReplicaOrigin). */
    public Uni<Void> markOrigin(String origin) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select set_config('" + ReplicaOrigin.SETTING + "', ?1, true)")
                .setParameter(1, origin)
                .getSingleResult())
                .replaceWithVoid();
    }

    /** Removes the registration of {@code ip} if {@code runId} holds it; true when one was removed. */
    public Uni<Boolean> release(String ip, UUID runId) {
        return delete("ip = ?1 and runId = ?2", ip, runId).map(count -> count > 0);
    }

    /** The registration {@code runId} holds at {@code ip}, or null. */
    public Uni<RegisteredSandbox> held(String ip, UUID runId) {
        return find("ip = ?1 and runId = ?2", ip, runId).firstResult();
    }

    /** Every stored registration. */
    public Uni<List<RegisteredSandbox>> all() {
        return listAll();
    }
}
