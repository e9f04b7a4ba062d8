package io.trimus.run.repository;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/** Companies by id. */
@ApplicationScoped
public class CompanyRepository implements PanacheRepositoryBase<Company, UUID> {
}
