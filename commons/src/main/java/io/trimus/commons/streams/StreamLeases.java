package io.trimus.commons.streams;

/**
 * The long-lived answers one instance holds open, counted per credential: each takes one of its credential's
 * {@code trimus.streams.max-per-caller} places ({@link Places}, keyed by {@link CredentialKey}) and keeps it while it
 * is open. The one rule behind the REST services' {@code commons.access.StreamAccess} and the dashboard's live feeds;
 * who the caller is, and how to ask again, stays theirs ({@link StreamLease#guard}).
 */
public final class StreamLeases {
    private final Places<CredentialKey> places = new Places<>();

    /**
     * One more place of {@code credential} (a bearer secret or a whole Authorization value: one per credential);
     * {@link TooManyStreams} when it already holds {@code limits.maxPerCaller()} on this instance.
     */
    public StreamLease take(String credential, StreamLimits limits) {
        int max = limits.maxPerCaller();
        Places.Place place = places.take(CredentialKey.of(credential), max).orElseThrow(() -> new TooManyStreams(max));
        return new StreamLease(place, limits.recheck());
    }

    /** How many places {@code credential} holds now. */
    public int taken(String credential) {
        return places.taken(CredentialKey.of(credential));
    }
}
