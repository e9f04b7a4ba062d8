/**
 * Addresses, decided once for every service: the one CIDR type ({@link io.trimus.commons.net.Cidr}), IP literals
 * read without lookup ({@link io.trimus.commons.net.IpAddresses}) and the special-purpose address table with its
 * IPv4-in-IPv6 unwrapping (entry point {@link io.trimus.commons.net.SpecialAddresses#classify}). Pure: no sockets,
 * no DNS, no configuration; each service keeps its own allow-private knob on top. Never imports a service's code.
 */
package io.trimus.commons.net;
