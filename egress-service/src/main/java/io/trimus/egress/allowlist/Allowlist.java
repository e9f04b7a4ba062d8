package io.trimus.egress.allowlist;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** A company's allowlist as a whole: which revision is current. Its entries are {@link AllowlistEntry} rows. */
@Entity
@Table(name = "allowlist")
public class Allowlist {
    @Id
    public UUID companyId;
    public long revision;
    public Instant updatedAt;
}
