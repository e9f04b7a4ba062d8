package io.trimus.events.adapter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Docker's memory notation, from its 6 MiB floor to sizes no host has. */
class MemorySizeTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void dockersMinimumIsAccepted() {
        assertThat(MemorySize.parseBytes("6m")).isEqualTo(6 * MIB).isEqualTo(MemorySize.MINIMUM_BYTES);
        assertThat(MemorySize.parseBytes("6291456b")).isEqualTo(6 * MIB);
        assertThat(MemorySize.parseBytes("6144k")).isEqualTo(6 * MIB);
        assertThat(MemorySize.parseBytes("6291456")).isEqualTo(6 * MIB);
    }

    @Test
    void oneByteBelowTheMinimumIsRefused() {
        assertThatThrownBy(() -> MemorySize.parseBytes("6291455b"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("6m");
    }

    @Test
    void commonSizesAreReadInBinaryUnits() {
        assertThat(MemorySize.parseBytes("512m")).isEqualTo(512 * MIB);
        assertThat(MemorySize.parseBytes("2G")).isEqualTo(2048 * MIB);
        assertThat(MemorySize.parseBytes("2g")).isEqualTo(2048 * MIB);
        assertThat(MemorySize.parseBytes(" 512M ")).isEqualTo(512 * MIB);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1k", "5m", "0", "0g", "1b"})
    void sizesBelowDockersMinimumAreRefused(String size) {
        assertThatThrownBy(() -> MemorySize.parseBytes(size)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 6m");
    }

    @Test
    void thePebibyteCeilingIsInclusive() {
        assertThat(MemorySize.parseBytes("1048576g")).isEqualTo(1L << 50);
        assertThatThrownBy(() -> MemorySize.parseBytes("1048577g")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("larger");
    }

    @ParameterizedTest
    @ValueSource(strings = {"9999999999999999g", "9999999999999999m", "9999999999999999"})
    void sizesThatWouldOverflowAreRefusedNotWrapped(String size) {
        assertThatThrownBy(() -> MemorySize.parseBytes(size)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("larger");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"lots", "1.5g", "-512m", "512mb", "512 m", "1t", "m", "99999999999999999"})
    void textThatIsNoSizeIsRefused(String size) {
        assertThatThrownBy(() -> MemorySize.parseBytes(size)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("512m");
    }
}
