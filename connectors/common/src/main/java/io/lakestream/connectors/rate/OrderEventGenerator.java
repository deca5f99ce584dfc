package io.lakestream.connectors.rate;

import io.lakestream.api.annotation.Internal;
import java.time.Instant;
import java.util.Locale;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * Generates order events as JSON text, like the {@code orders} topic of the seeds' examples: {@code
 * event_id, order_id, customer_id, amount, currency, order_ts}.
 *
 * <p>Deterministic in the record index, so a replay after a restore produces identical records.
 * Event times advance by {@code 1000 / rowsPerSecond} ms per record from {@code startMillis}, with
 * some records up to 4 s late (out of order). Every {@code duplicateEvery}-th record repeats the
 * previous event (same {@code event_id}: a producer retry), and every {@code malformedEvery}-th
 * record is broken JSON (for the dead-letter path). A value of 0 disables duplicates or malformed
 * records.
 */
@Internal
public final class OrderEventGenerator implements GeneratorFunction<Long, String> {
  private static final long serialVersionUID = 1L;
  private static final String[] CURRENCIES = {"USD", "EUR", "BRL", "GBP"};

  private final long startMillis;
  private final double millisPerRecord;
  private final int duplicateEvery;
  private final int malformedEvery;

  public OrderEventGenerator(
      long startMillis, long rowsPerSecond, int duplicateEvery, int malformedEvery) {
    if (rowsPerSecond <= 0) {
      throw new IllegalArgumentException("rowsPerSecond must be > 0, was " + rowsPerSecond);
    }
    this.startMillis = startMillis;
    this.millisPerRecord = 1000.0 / rowsPerSecond;
    this.duplicateEvery = duplicateEvery;
    this.malformedEvery = malformedEvery;
  }

  @Override
  public String map(Long index) {
    long i = index;
    if (malformedEvery > 0 && i % malformedEvery == malformedEvery - 1) {
      return "{\"event_id\":\"e-" + i + "\",\"order_id\":";
    }
    if (duplicateEvery > 0 && i > 0 && i % duplicateEvery == 0) {
      return event(i - 1);
    }
    return event(i);
  }

  private String event(long i) {
    long lateness = (i % 7 == 3) ? 4_000 : 0;
    long eventMillis = startMillis + Math.round(i * millisPerRecord) - lateness;
    long cents = 500 + (i * 7919) % 100_000;
    return String.format(
        Locale.ROOT,
        "{\"event_id\":\"e-%d\",\"order_id\":\"o-%d\",\"customer_id\":\"c-%d\","
            + "\"amount\":%d.%02d,\"currency\":\"%s\",\"order_ts\":\"%s\"}",
        i,
        i,
        i % 997,
        cents / 100,
        cents % 100,
        CURRENCIES[(int) (i % CURRENCIES.length)],
        Instant.ofEpochMilli(eventMillis));
  }
}
