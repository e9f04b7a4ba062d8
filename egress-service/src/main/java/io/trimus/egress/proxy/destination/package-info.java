/**
 * The proxy's second stage: where an admitted connection may go. Resolves the host, judges every address by its class
 * (public only, unless TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE covers it; never the host itself) and dials one that passed,
 * never the name again. Entry point: {@link io.trimus.egress.proxy.destination.DestinationDialer#open}. Imports only
 * admission of the proxy; never intercept, relay or the connection.
 */
package io.trimus.egress.proxy.destination;
