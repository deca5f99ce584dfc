package io.lakestream.pipelines.gold;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.DeltaMergeResult;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A silver orders table for the gold tests, written as pipeline E3 writes it: one MERGE per batch
 * on {@code order_id} (inserts, updates, deletes) into a table with the change data feed, so every
 * version carries insert, update_preimage/postimage and delete change rows. Batches are generated
 * from a seeded random: new orders, updates of amounts, updates that move an order to another day,
 * deletes, an occasional null amount. Public for its reference model of the gold table ({@link
 * #dailyAggregate(Collection, int, int)}, {@link #gold}), which the lakehouse tests use too.
 */
public final class SilverOrders {
  static final LocalDate FIRST_DAY = LocalDate.of(2026, 3, 1);
  static final int DAYS = 6;

  final DeltaTable table;
  private final DeltaMergeCommit merge;
  private final Random random;
  private final Map<String, Object[]> live = new LinkedHashMap<>();
  private long epoch;
  private int nextOrder;

  SilverOrders(String path, long seed) {
    table = DeltaTable.forPath(path);
    merge =
        new DeltaMergeCommit(
            DeltaMerge.into(table, OrdersGoldDaily.SILVER_SCHEMA, "order_id")
                .whenMatchedDelete((s, t) -> "D".equals(s[5]))
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll((s, t) -> !"D".equals(s[5]))
                .build(),
            "silver-writer");
    random = new Random(seed);
  }

  /**
   * Commits one MERGE version: {@code inserts} new orders, {@code updates} changed ones (half of
   * them moved to another day) and {@code deletes} removed ones. Returns the version.
   */
  long commit(int inserts, int updates, int deletes) throws IOException {
    Map<String, Object[]> batch = new LinkedHashMap<>();
    List<String> existing = new ArrayList<>(live.keySet());
    java.util.Collections.shuffle(existing, random);
    int e = 0;
    for (int i = 0; i < deletes && e < existing.size(); i++, e++) {
      Object[] row = live.get(existing.get(e)).clone();
      row[5] = "D";
      batch.put(existing.get(e), row);
    }
    for (int i = 0; i < updates && e < existing.size(); i++, e++) {
      Object[] row = live.get(existing.get(e)).clone();
      if (random.nextBoolean()) {
        row[1] = orderTs(); // moves to (most likely) another day
      }
      row[3] = amount();
      row[4] = Instant.parse("2026-04-01T00:00:00Z").plusSeconds(epoch);
      row[5] = "U";
      batch.put(existing.get(e), row);
    }
    for (int i = 0; i < inserts; i++) {
      String id = String.format("o-%05d", nextOrder++);
      batch.put(
          id,
          new Object[] {
            id,
            orderTs(),
            "c-" + random.nextInt(50),
            amount(),
            Instant.parse("2026-04-01T00:00:00Z").plusSeconds(epoch),
            "I"
          });
    }
    DeltaMergeResult result = merge.commit(++epoch, new ArrayList<>(batch.values()));
    for (Map.Entry<String, Object[]> en : batch.entrySet()) {
      if ("D".equals(en.getValue()[5])) {
        live.remove(en.getKey());
      } else {
        live.put(en.getKey(), en.getValue());
      }
    }
    return result.version();
  }

  /** Commits one MERGE version deleting every order of {@code day}; returns the version. */
  long deleteDay(LocalDate day) throws IOException {
    List<Object[]> batch = new ArrayList<>();
    for (Object[] row : live.values()) {
      if (LocalDate.ofInstant((Instant) row[1], ZoneOffset.UTC).equals(day)) {
        Object[] delete = row.clone();
        delete[5] = "D";
        batch.add(delete);
      }
    }
    if (batch.isEmpty()) {
      throw new IllegalStateException("no orders on " + day);
    }
    DeltaMergeResult result = merge.commit(++epoch, batch);
    batch.forEach(row -> live.remove((String) row[0]));
    return result.version();
  }

  private Instant orderTs() {
    return FIRST_DAY
        .plusDays(random.nextInt(DAYS))
        .atStartOfDay()
        .toInstant(ZoneOffset.UTC)
        .plusSeconds(random.nextInt(86_400));
  }

  private BigDecimal amount() {
    if (random.nextInt(40) == 0) {
      return null;
    }
    return BigDecimal.valueOf(random.nextInt(100_000), 2);
  }

  /**
   * The reference model: {@code count(*)} and {@code sum(amount)} per day of {@code order_ts} (UTC)
   * over the silver table's current rows, as "orders|total" with the total at scale 2.
   */
  static Map<LocalDate, String> dailyAggregate(DeltaTable silver) throws IOException {
    return dailyAggregate(new DeltaTableReader(silver).readLatest(), 1, 3);
  }

  /**
   * The reference model over silver {@code rows} whose {@code order_ts} (an {@link Instant}) and
   * {@code amount} (a {@link BigDecimal} or null) are at the given indexes, as {@link
   * #dailyAggregate(DeltaTable)}.
   */
  public static Map<LocalDate, String> dailyAggregate(
      Collection<Object[]> rows, int orderTsIndex, int amountIndex) {
    Map<LocalDate, long[]> counts = new TreeMap<>();
    Map<LocalDate, BigDecimal> sums = new TreeMap<>();
    for (Object[] row : rows) {
      LocalDate day = LocalDate.ofInstant((Instant) row[orderTsIndex], ZoneOffset.UTC);
      counts.computeIfAbsent(day, d -> new long[1])[0]++;
      BigDecimal amount =
          row[amountIndex] == null ? BigDecimal.ZERO : (BigDecimal) row[amountIndex];
      sums.merge(day, amount, BigDecimal::add);
    }
    Map<LocalDate, String> out = new TreeMap<>();
    counts.forEach(
        (day, n) -> out.put(day, n[0] + "|" + sums.get(day).setScale(2, RoundingMode.UNNECESSARY)));
    return out;
  }

  /** The gold table as "orders|total" per day. */
  public static Map<LocalDate, String> gold(DeltaTable gold) throws IOException {
    Map<LocalDate, String> out = new TreeMap<>();
    if (gold.latestSnapshot().isEmpty()) {
      return out;
    }
    for (Object[] row : new DeltaTableReader(gold).readLatest()) {
      String previous =
          out.put(
              (LocalDate) row[0],
              row[1] + "|" + ((BigDecimal) row[2]).setScale(2, RoundingMode.UNNECESSARY));
      if (previous != null) {
        throw new AssertionError("gold holds day " + row[0] + " twice");
      }
    }
    return out;
  }
}
