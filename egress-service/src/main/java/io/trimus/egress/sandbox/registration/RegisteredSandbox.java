package io.trimus.egress.sandbox.registration;

import io.trimus.egress.sandbox.Sandbox;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** The stored registration of a sandbox address: the run that holds it, since when. */
@Entity
@Table(name = "sandbox_registration")
public class RegisteredSandbox {
    @Id
    public String ip;
    public UUID companyId;
    public UUID agentId;
    public UUID runId;
    /** Null between the claim of the address and the creation of its container. */
    public String containerId;
    public Instant registeredAt;
    /** Whether the run holds masked secrets, whose values are in memory only (never in clear in this row). */
    public boolean masked;
    /** The run's masks as the adapter service sealed them (SandboxMasks), for replicas that did not receive them. */
    public String sealedMasks;
    /** The fingerprint of the egress CA placed in the sandbox, sent with the masks. */
    public String masksCa;

    /** The registration as the resolver reads it. */
    public Sandbox toSandbox() {
        return new Sandbox(ip, companyId, agentId, runId, containerId);
    }
}
