/**
 * The argv of a Claude Code / Codex CLI run, decided in one place for the sandboxed ({@code cli}) and host-process
 * ({@code local}) executors, with the SEC-015 guardrail. Entry point: {@link io.trimus.adapter.command.CliCommand#build}.
 * Pure: no I/O; never imports an executor or a stage.
 */
package io.trimus.adapter.command;
