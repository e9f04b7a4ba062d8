/**
 * The hardened container runtime the docker and sandbox executors share: the policy as data, the bounded executor,
 * and one run's container from network to removal. Entry points: {@link io.trimus.adapter.container.RunExecutor#submit},
 * {@link io.trimus.adapter.container.DockerContainerRunner#run}. Uses egress and engine; never imports an executor or a
 * stage above it.
 */
package io.trimus.adapter.container;
