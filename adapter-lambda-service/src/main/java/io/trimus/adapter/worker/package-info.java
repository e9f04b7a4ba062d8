/**
 * Worker mode (TRIMUS_WORKER_TAGS): the intake of remote tasks a worker claims for its tags, checked and run through
 * the dispatcher with the worker's own adapters, and its heartbeats. Entry point:
 * {@link io.trimus.adapter.worker.RemoteTaskConsumer}. Imports dispatch, lease and run; never an executor.
 */
package io.trimus.adapter.worker;
