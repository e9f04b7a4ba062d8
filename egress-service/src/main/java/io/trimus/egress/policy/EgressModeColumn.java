package io.trimus.egress.policy;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.util.Locale;

/** Stores an {@link EgressMode} as the lower-case word the API and the table's check use: enforce, report. */
@Converter
public class EgressModeColumn implements AttributeConverter<EgressMode, String> {

    @Override
    public String convertToDatabaseColumn(EgressMode mode) {
        return mode == null ? null : mode.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public EgressMode convertToEntityAttribute(String column) {
        return column == null ? null : EgressMode.valueOf(column.toUpperCase(Locale.ROOT));
    }
}
