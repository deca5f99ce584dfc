package io.lakestream.bench.delta;

/**
 * One narrow row of the delta-sink bench. A Flink POJO (public fields, no-arg constructor), as a
 * user's event class would be.
 */
public class NarrowRow {
  public long id;

  /** Event time, microseconds since the epoch. */
  public long tsMicros;

  public String category;
  public double amount;

  public NarrowRow() {}

  public NarrowRow(long id, long tsMicros, String category, double amount) {
    this.id = id;
    this.tsMicros = tsMicros;
    this.category = category;
    this.amount = amount;
  }

  /** The row with index {@code i} of the bench's data set. */
  public static NarrowRow at(long i) {
    return new NarrowRow(i, NarrowRows.tsMicros(i), NarrowRows.category(i), NarrowRows.amount(i));
  }
}
