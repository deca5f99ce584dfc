package io.lakestream.connectors.delta.dv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** Delta's RoaringBitmapArray format, against the Delta protocol's own example. */
class RowIndexBitmapTest {
  @Test
  void writesThePortableFormatTheProtocolDescribes() throws IOException {
    byte[] bytes = RowIndexBitmap.of(3, 4, 7, 11, 18, 29).serialize();
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);

    assertThat(in.getInt()).isEqualTo(RowIndexBitmap.PORTABLE_MAGIC);
    assertThat(in.getLong()).as("buckets").isEqualTo(1);
    assertThat(in.getInt()).as("the bucket's key").isZero();
    RoaringBitmap bucket = new RoaringBitmap();
    bucket.deserialize(in.slice().order(ByteOrder.LITTLE_ENDIAN));
    assertThat(bucket.toArray()).containsExactly(3, 4, 7, 11, 18, 29);
    RowIndexBitmap read = RowIndexBitmap.deserialize(bytes);
    assertThat(read.cardinality()).isEqualTo(6);
    assertThat(read.contains(18)).isTrue();
    assertThat(read.contains(5)).isFalse();
  }

  @Test
  void roundTripsIndexesBeyondThirtyTwoBits() throws IOException {
    RowIndexBitmap bitmap = RowIndexBitmap.of(0, 65_536, 1L << 32, (1L << 33) + 7);
    for (long i = 100_000; i < 200_000; i += 3) {
      bitmap.add(i);
    }
    RowIndexBitmap read = RowIndexBitmap.deserialize(bitmap.serialize());

    assertThat(read.cardinality()).isEqualTo(bitmap.cardinality());
    assertThat(read.contains(1L << 32)).isTrue();
    assertThat(read.contains((1L << 33) + 7)).isTrue();
    assertThat(read.contains(100_003)).isTrue();
    assertThat(read.contains(100_004)).isFalse();
  }

  @Test
  void refusesBytesWithoutTheMagicNumber() {
    assertThatThrownBy(() -> RowIndexBitmap.deserialize(new byte[] {1, 2, 3, 4, 0, 0, 0, 0}))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("magic number");
  }
}
