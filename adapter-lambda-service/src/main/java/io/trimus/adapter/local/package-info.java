/**
 * The {@code claude_local} / {@code codex_local} executors: the CLI as a host process, gated by TRIMUS_LOCAL_ADAPTERS.
 * Entry point: {@link io.trimus.adapter.local.LocalCliAdapter#admit}; {@code LocalProcessRunner} runs the process
 * tree. Never imports another executor, the container runtime or a stage above it.
 */
package io.trimus.adapter.local;
