/**
 * Configuration groups two services read the same way, extended or embedded by each service's own
 * {@code @ConfigMapping(prefix = "trimus")}: {@link io.trimus.commons.config.DockerCeilings} (TRIMUS_DOCKER_MAX_*) and
 * {@link io.trimus.commons.config.DockerAllowances} (TRIMUS_DOCKER_ALLOWED_NETWORKS, TRIMUS_DOCKER_ALLOW_ROOT).
 * Plain SmallRye Config interfaces; never imports a service's code.
 */
package io.trimus.commons.config;
