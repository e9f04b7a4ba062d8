/**
 * Reads an agent CLI's own output into its answer and what it said the run used: Claude Code's result object
 * ({@code claude -p --output-format json}) and Codex's event stream ({@code codex exec --json}), out of the captured
 * output tail. The sandbox controls every byte: the work is linear in the tail, nothing throws, and anything that does
 * not read cleanly leaves the run's report as it was. Entry point: {@link io.trimus.adapter.command.output.CliOutput}.
 * Pure: no I/O; imports only the bottom of the service.
 */
package io.trimus.adapter.command.output;
