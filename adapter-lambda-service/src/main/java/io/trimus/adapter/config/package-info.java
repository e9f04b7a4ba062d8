/**
 * Configuration: {@link io.trimus.adapter.config.TrimusConfig} ({@code @ConfigMapping(prefix = "trimus")}), one file
 * per group, and the docker and sandbox defaults checked at boot. The bottom of the service: imports nothing of it.
 */
package io.trimus.adapter.config;
