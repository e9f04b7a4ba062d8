package io.trimus.egress.ca;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** A stored egress CA: its certificate, its private key sealed ({@link CaKeySeal}), and whether it was retired. */
@Entity
@Table(name = "egress_ca")
public class StoredAuthority {
    @Id
    public String fingerprint;
    public String certificatePem;
    public byte[] keyCiphertext;
    public Instant createdAt;
    /** Null for the active CA. */
    public Instant retiredAt;
}
