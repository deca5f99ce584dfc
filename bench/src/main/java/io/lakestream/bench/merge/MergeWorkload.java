package io.lakestream.bench.merge;

import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The data of {@code bin/bench merge}, fully determined by its sizes: a silver table of {@code
 * baseRows} rows with keys {@code 0..baseRows-1} (row values a function of the key), and per epoch
 * a batch of {@code batchRows} upserts: 80% existing keys drawn from one narrow window of the key
 * range (a different window per epoch; one key in four of the window), 20% new keys above every
 * existing one. No key repeats within a batch. The reference model ({@link #expected(long)}) is the
 * row each key must hold after all epochs.
 *
 * <p>Columns: {@code id} long (the merge key), {@code name} string, {@code amount} decimal(12,2),
 * {@code score} double, {@code epoch} long (0 for the initial rows, e+1 for rows of epoch e). The
 * table has {@code delta.enableChangeDataFeed=true}.
 *
 * @param baseRows rows of the initial table
 * @param updateSpan the existing keys the batches update are drawn from {@code 0..updateSpan-1}
 *     (the same batches then fit a larger table too)
 * @param batchRows upserts per epoch
 * @param epochs epochs (batches)
 * @param fileRows rows per data file of the initial table (files hold disjoint sorted key ranges)
 */
public record MergeWorkload(
    long baseRows, long updateSpan, int batchRows, int epochs, int fileRows) {
  /** New keys start here, above the keys of any initial table of the bench. */
  public static final long NEW_KEY_BASE = 1_000_000_000_000L;

  /** One existing key in this many keys of the epoch's window is updated. */
  static final int WINDOW_DENSITY = 4;

  public MergeWorkload {
    if (batchRows < 5 || epochs < 1 || fileRows < 1) {
      throw new IllegalArgumentException("batchRows >= 5, epochs >= 1, fileRows >= 1");
    }
    if (updateSpan > baseRows) {
      throw new IllegalArgumentException("updateSpan must be <= baseRows");
    }
    if (updateSpan < (long) updatesPerBatch(batchRows) * WINDOW_DENSITY) {
      throw new IllegalArgumentException(
          "The table ("
              + updateSpan
              + " rows) must be at least "
              + WINDOW_DENSITY
              + "x the updates per batch ("
              + updatesPerBatch(batchRows)
              + ")");
    }
  }

  /** Batches updating keys anywhere in the table. */
  public MergeWorkload(long baseRows, int batchRows, int epochs, int fileRows) {
    this(baseRows, baseRows, batchRows, epochs, fileRows);
  }

  /** The same batches against an initial table of {@code rows} rows (>= updateSpan). */
  public MergeWorkload withBaseRows(long rows) {
    return new MergeWorkload(rows, updateSpan, batchRows, epochs, fileRows);
  }

  /** The table's declaration (copy-on-write: no deletion vectors). */
  public static DeltaTableSchema schema() {
    return schema(MergeMode.COPY_ON_WRITE);
  }

  /**
   * The table's declaration for {@code mode}: with {@link MergeMode#DELETION_VECTORS} also {@code
   * delta.enableDeletionVectors=true}, so lakestream's and Spark's MERGE write deletion vectors.
   */
  public static DeltaTableSchema schema(MergeMode mode) {
    DeltaTableSchema.Builder b =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("name", ColumnType.STRING)
            .column("amount", ColumnType.decimal(12, 2))
            .column("score", ColumnType.DOUBLE)
            .column("epoch", ColumnType.LONG)
            .property("delta.enableChangeDataFeed", "true");
    if (mode.deletionVectors()) {
      b.property("delta.enableDeletionVectors", "true");
    }
    return b.build();
  }

  private static int updatesPerBatch(int batchRows) {
    return batchRows * 4 / 5;
  }

  /** Existing keys updated per batch (80%). */
  public int updatesPerBatch() {
    return updatesPerBatch(batchRows);
  }

  /** New keys inserted per batch (20%). */
  public int insertsPerBatch() {
    return batchRows - updatesPerBatch();
  }

  /** Rows of the table after all epochs. */
  public long finalRows() {
    return baseRows + (long) epochs * insertsPerBatch();
  }

  /** The initial row of {@code key}. */
  public static Object[] baseRow(long key) {
    return new Object[] {
      key, "name-" + key, BigDecimal.valueOf(key % 1_000_000_000L, 2), key * 0.5, 0L
    };
  }

  /** The row epoch {@code epoch} writes for {@code key}. */
  public static Object[] batchRow(int epoch, long key) {
    return new Object[] {
      key,
      "name-" + key + "-e" + epoch,
      BigDecimal.valueOf((key * 31 + epoch) % 1_000_000_000L, 2),
      key * 0.5 + epoch + 1,
      (long) epoch + 1
    };
  }

  /** The first key of epoch {@code epoch}'s window of existing keys. */
  long windowStart(int epoch) {
    long span = updateSpan - (long) updatesPerBatch() * WINDOW_DENSITY;
    return span <= 0 ? 0 : Math.floorMod((epoch * 7L + 3) * 524_287L * 31, span + 1);
  }

  /** The keys of epoch {@code epoch}: updates (in key order) then inserts. */
  public long[] keys(int epoch) {
    long[] keys = new long[batchRows];
    Random random = new Random(1_000L + epoch);
    long start = windowStart(epoch);
    int updates = updatesPerBatch();
    for (int i = 0; i < updates; i++) {
      keys[i] = start + (long) i * WINDOW_DENSITY + random.nextInt(WINDOW_DENSITY);
    }
    for (int i = updates; i < batchRows; i++) {
      keys[i] = NEW_KEY_BASE + (long) epoch * batchRows + i;
    }
    return keys;
  }

  /** The rows of epoch {@code epoch}'s batch. */
  public List<Object[]> batch(int epoch) {
    List<Object[]> rows = new ArrayList<>(batchRows);
    for (long key : keys(epoch)) {
      rows.add(batchRow(epoch, key));
    }
    return rows;
  }

  /** For each key some epoch wrote, the last such epoch. */
  public Map<Long, Integer> lastEpochByKey() {
    Map<Long, Integer> last = new HashMap<>(epochs * batchRows * 2);
    for (int e = 0; e < epochs; e++) {
      for (long key : keys(e)) {
        last.put(key, e);
      }
    }
    return last;
  }

  /**
   * How many keys of epoch {@code epoch} were already in the table (initial or inserted by an
   * earlier epoch): its updates; the rest are its inserts.
   */
  public long[] updatesAndInserts(int epoch) {
    java.util.Set<Long> earlier = new java.util.HashSet<>();
    for (int e = 0; e < epoch; e++) {
      for (long key : keys(e)) {
        earlier.add(key);
      }
    }
    long updates = 0;
    for (long key : keys(epoch)) {
      if (key < baseRows || earlier.contains(key)) {
        updates++;
      }
    }
    return new long[] {updates, batchRows - updates};
  }
}
