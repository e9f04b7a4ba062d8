/**
 * The deployment's egress CA: created once, its key sealed for storage, rotated, and opened in memory to issue the
 * leaf certificates the masking interceptor presents. Entry point: {@link io.trimus.egress.ca.EgressCaService}. Never
 * imports the proxy, dns or rest.
 */
package io.trimus.egress.ca;
