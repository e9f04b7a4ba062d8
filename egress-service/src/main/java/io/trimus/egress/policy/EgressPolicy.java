package io.trimus.egress.policy;

import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** A company's stored egress policy; a company without one is enforced. */
@Entity
@Table(name = "egress_policy")
public class EgressPolicy {
    @Id
    public UUID companyId;
    @Convert(converter = EgressModeColumn.class)
    public EgressMode mode;
    public long revision;
    public Instant updatedAt;
}
