/**
 * The {@code docker} executor: an operator image in a hardened container. Entry point:
 * {@link io.trimus.adapter.docker.DockerAdapter#admit} (contract, operator choices, secrets; then the shared container
 * runtime). Never imports another executor (cli, local, remote, lambda, a2a) or a stage above it (intake, dispatch,
 * worker, status, lease).
 */
package io.trimus.adapter.docker;
