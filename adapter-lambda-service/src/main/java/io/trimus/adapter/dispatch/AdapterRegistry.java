package io.trimus.adapter.dispatch;

import io.trimus.adapter.run.Adapter;
import io.trimus.events.adapter.AdapterType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/** The adapters this build of the service provides, by adapter_type. */
@ApplicationScoped
public class AdapterRegistry {

    private final Map<AdapterType, Adapter> adapters = new EnumMap<>(AdapterType.class);

    @Inject
    public AdapterRegistry(@Any Instance<Adapter> available) {
        for (Adapter adapter : available) {
            Adapter previous = adapters.put(adapter.type(), adapter);
            if (previous != null) {
                throw new IllegalStateException("two adapters serve adapter type " + adapter.type().wireName());
            }
        }
    }

    /** The adapter serving this adapter_type wire name, if this build has one. */
    public Optional<Adapter> find(String adapterType) {
        return AdapterType.fromWire(adapterType).map(adapters::get);
    }

    /** Every adapter of this build. */
    public Collection<Adapter> all() {
        return Collections.unmodifiableCollection(adapters.values());
    }
}
