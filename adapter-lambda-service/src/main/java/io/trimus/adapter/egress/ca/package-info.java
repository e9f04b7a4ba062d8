/**
 * egress-service's CA certificate placed where a sandbox can read it (a named volume per CA). Entry point:
 * {@link io.trimus.adapter.egress.ca.EgressCaVolumes#place}. Imports only the registry client; never the attachment.
 */
package io.trimus.adapter.egress.ca;
