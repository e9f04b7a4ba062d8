/**
 * The Docker engine: the one docker-java client, whether this service has an engine (TRIMUS_DOCKER_ENABLED), and
 * engine errors as sentences. Entry point: {@link io.trimus.adapter.engine.DockerClientProducer}. Imports only config.
 */
package io.trimus.adapter.engine;
