/**
 * run-service's configuration: {@link io.trimus.run.config.TrimusConfig} ({@code trimus.*}) and the producers that
 * hand parts of it to beans (stream limits, the encryption key, the clock), and the strictness of request JSON.
 * Entry point: {@link io.trimus.run.config.TrimusConfig}. Imports no other package of run-service.
 */
package io.trimus.run.config;
