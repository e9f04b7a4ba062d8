/**
 * The hardened container runtime the docker and sandbox executors share: the policy as data, the bounded executor,
 * and one run's container from network to removal. Entry points: {@link io.trimus.adapter.container.RunExecutor#submit},
 * {@link io.trimus.adapter.container.DockerContainerRunner#run}, and for a probe (an egress canary's sandbox, which
 * reports nothing and takes no run slot) {@link io.trimus.adapter.container.ProbeRunner#run}. Uses egress and engine;
 * never imports an executor or a stage above it.
 */
package io.trimus.adapter.container;
