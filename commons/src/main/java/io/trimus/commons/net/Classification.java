package io.trimus.commons.net;

/**
 * What {@link SpecialAddresses#classify} found about one address: the address a connection to it reaches (the
 * embedded IPv4 address when an IPv6 form carries one) and, unless it is public, its class and a description.
 *
 * @param address      the address asked about, 4 or 16 bytes
 * @param embedding    the IPv6 form that carries an IPv4 address, or null
 * @param reached      the address a connection reaches: {@code address}, or the embedded IPv4 address
 * @param addressClass the class that forbids dialling it, or null for a public address
 * @param description  what the address is, e.g. {@code a private address}; null for a public address
 */
public record Classification(byte[] address, Embedding embedding, byte[] reached, AddressClass addressClass,
                             String description) {

    /** Whether the address is public (global unicast reaching global unicast): no knob is needed to dial it. */
    public boolean isPublic() {
        return addressClass == null;
    }

    /**
     * Why the address is not public, as a sentence that names it: {@code 10.0.0.1 is a private address}, or
     * {@code 2002:a00:1:0:0:0:0:0 is a 6to4 address of 10.0.0.1, a private address}.
     *
     * @return null for a public address
     */
    public String reason() {
        if (isPublic()) {
            return null;
        }
        String text = IpAddresses.text(address);
        return embedding == null ? text + " is " + description
                : text + " is " + embedding.description() + " of " + IpAddresses.text(reached) + ", " + description;
    }

    /** The IPv6 forms that carry an IPv4 address, and whether the form is refused even when that address is public. */
    public enum Embedding {
        IPV4_MAPPED("an IPv4-mapped address", null, null),
        NAT64("a NAT64 address", null, null),
        SIX_TO_FOUR("a 6to4 address", null, null),
        /** ::/96 but :: and ::1; deprecated by RFC 4291, so refused whatever it reaches (the adapter always did). */
        IPV4_COMPATIBLE("an IPv4-compatible address (deprecated)", AddressClass.RESERVED,
                "a deprecated form refused whatever it reaches"),
        /** 2001::/32, the client address stored inverted; a tunnel, refused whatever it reaches (the adapter did). */
        TEREDO("a Teredo address", AddressClass.TEREDO,
                "a tunnel through a Teredo relay, refused whatever it reaches");

        private final String description;
        private final AddressClass ownClass;
        private final String ownDescription;

        Embedding(String description, AddressClass ownClass, String ownDescription) {
            this.description = description;
            this.ownClass = ownClass;
            this.ownDescription = ownDescription;
        }

        /** What the form is, e.g. {@code a NAT64 address}. */
        public String description() {
            return description;
        }

        /** The class of the form itself when the IPv4 address it carries is public; null when it is then public. */
        AddressClass ownClass() {
            return ownClass;
        }

        String ownDescription() {
            return ownDescription;
        }
    }
}
