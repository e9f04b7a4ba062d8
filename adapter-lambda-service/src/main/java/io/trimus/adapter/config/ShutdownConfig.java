package io.trimus.adapter.config;

import io.trimus.commons.config.ShutdownBounds;

/** The bounds of a stop, declared once in commons. */
public interface ShutdownConfig extends ShutdownBounds {
}
