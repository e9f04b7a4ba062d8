package io.trimus.adapter.run;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class StreamTailTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keepsEverythingUnderTheCap() {
        StreamTail tail = new StreamTail(100);
        tail.append(utf8("hello "));
        tail.append(utf8("world\n"));
        assertThat(tail.text()).isEqualTo("hello world\n");
        assertThat(tail.truncated()).isFalse();
    }

    @Test
    void keepsOnlyTheLastBytes() {
        StreamTail tail = new StreamTail(5);
        tail.append(utf8("0123"));
        tail.append(utf8("456789"));
        assertThat(tail.text()).isEqualTo("56789");
        assertThat(tail.truncated()).isTrue();
    }

    @Test
    void aChunkLargerThanTheCapKeepsItsEnd() {
        StreamTail tail = new StreamTail(4);
        tail.append(utf8("abcdefghij"));
        assertThat(tail.text()).isEqualTo("ghij");
    }

    @Test
    void neverCutsACharacterInHalf() {
        StreamTail tail = new StreamTail(4);
        tail.append(utf8("xé€ab")); // x(1) é(2) €(3) a b = 8 bytes: the last 4 start inside €
        assertThat(tail.text()).isEqualTo("ab");

        StreamTail five = new StreamTail(5);
        five.append(utf8("ab"));
        five.append(utf8("🙂")); // 4 bytes
        assertThat(five.text()).isEqualTo("b🙂");
    }

    @Test
    void invalidBytesAreReplacedWithinTheCap() {
        StreamTail tail = new StreamTail(6);
        tail.append(new byte[] {'a', (byte) 0xff, (byte) 0xfe, 'b', 'c', 'd'});
        String text = tail.text();
        assertThat(text.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(6);
        assertThat(text).endsWith("bcd");
    }
}
