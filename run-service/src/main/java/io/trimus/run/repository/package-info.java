/**
 * The database layer: entities and their Panache repositories in a sub-package per feature, and
 * {@link io.trimus.run.repository.ClusterLocks} (one replica at a time for a background job). Entry point:
 * {@link io.trimus.run.repository.ClusterLocks}. Never imports service, rest or messaging.
 */
package io.trimus.run.repository;
