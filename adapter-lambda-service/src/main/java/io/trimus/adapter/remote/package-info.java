/**
 * The {@code remote} executor, dispatching side: the task on {@code trimus.remote.tasks} for the workers of a tag, the
 * watch of its claim and its worker's heartbeats, and the hand-over to an A2A peer when adapter_config.a2a says so.
 * Entry point: {@link io.trimus.adapter.remote.RemoteAdapter}. Imports a2a's delegation only; never another executor,
 * dispatch, worker or status.
 */
package io.trimus.adapter.remote;
