package io.lakestream.bench.delta;

import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;

/**
 * The delta-sink data set, defined by row index so both sides write exactly the same values without
 * sharing memory: {@code id} = index, {@code ts} one millisecond apart, {@code category} from eight
 * values, {@code amount} a pseudo-random price with cents.
 */
public final class NarrowRows {
  private NarrowRows() {}

  /** The table: id, ts, category, amount; all NOT NULL, unpartitioned. */
  public static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("ts", ColumnType.TIMESTAMP, false)
          .column("category", ColumnType.STRING, false)
          .column("amount", ColumnType.DOUBLE, false)
          .build();

  private static final String[] CATEGORIES = {
    "books", "games", "garden", "grocery", "health", "music", "sports", "toys"
  };

  /** 2026-01-01T00:00:00Z in microseconds. */
  private static final long BASE_TS_MICROS = 1_767_225_600_000_000L;

  public static long tsMicros(long i) {
    return BASE_TS_MICROS + i * 1_000;
  }

  public static String category(long i) {
    return CATEGORIES[(int) (mix(i) & 7)];
  }

  public static double amount(long i) {
    return ((mix(i) >>> 20) % 100_000) / 100.0;
  }

  /** SplitMix64's finalizer: a cheap, well-spread hash of the index. */
  private static long mix(long i) {
    long z = i + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
