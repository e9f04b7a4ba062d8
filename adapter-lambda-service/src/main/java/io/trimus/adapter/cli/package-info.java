/**
 * The {@code claude_sandbox} / {@code codex_sandbox} executors: the CLI in a container with the docker hardening, on
 * the egress network. Entry point: {@link io.trimus.adapter.cli.CliSandboxAdapter#admit}. Uses the container runtime
 * and the shared CLI argv ({@code command}); never imports another executor or a stage above it.
 */
package io.trimus.adapter.cli;
