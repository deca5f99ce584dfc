package io.lakestream.connectors.rate.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.state.query.QueryContext;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * Builds a {@link SequenceSource} with options named as in Spark's rate source. {@link #build()}
 * runs {@link #sanityCheck()}; invalid options fail with a message naming the option.
 */
@PublicEvolving
public final class RateSourceBuilder<T> {
  private final String name;
  private final GeneratorFunction<Long, T> generator;
  private final TypeInformation<T> type;
  private long rows = Long.MAX_VALUE;
  private int numPartitions = 2;
  private long rowsPerSecond = 1000;
  private long maxRowsPerTrigger;
  private QueryContext query;

  private RateSourceBuilder(
      String name, GeneratorFunction<Long, T> generator, TypeInformation<T> type) {
    this.name = Objects.requireNonNull(name, "name");
    this.generator = Objects.requireNonNull(generator, "generator");
    this.type = Objects.requireNonNull(type, "type");
  }

  /**
   * @param name the source's name; use the same string as its operator uid
   */
  public static <T> RateSourceBuilder<T> rate(
      String name, GeneratorFunction<Long, T> generator, TypeInformation<T> type) {
    return new RateSourceBuilder<>(name, generator, type);
  }

  /** Rows available in total; default unbounded. */
  public RateSourceBuilder<T> rows(long rows) {
    this.rows = rows;
    return this;
  }

  /** Fixed for the life of the query. Default 2. */
  public RateSourceBuilder<T> numPartitions(int numPartitions) {
    this.numPartitions = numPartitions;
    return this;
  }

  /** 0 = unlimited. Default 1000. */
  public RateSourceBuilder<T> rowsPerSecond(long rowsPerSecond) {
    this.rowsPerSecond = rowsPerSecond;
    return this;
  }

  /** At most this many rows per epoch, split across partitions; 0 = no limit (default). */
  public RateSourceBuilder<T> maxRowsPerTrigger(long maxRowsPerTrigger) {
    this.maxRowsPerTrigger = maxRowsPerTrigger;
    return this;
  }

  /** The query the source runs in (offsets recording, availableNow). */
  public RateSourceBuilder<T> query(QueryContext query) {
    this.query = query;
    return this;
  }

  /**
   * Checks the options; fails with a {@link LakestreamException} ({@code INVALID_OPTION_VALUE})
   * naming the bad one.
   */
  public void sanityCheck() {
    if (rows < 0) {
      throw new LakestreamException(
          OptionErrorClass.INVALID_OPTION_VALUE, "rate option rows must be >= 0, was " + rows);
    }
    if (numPartitions < 1) {
      throw new LakestreamException(
          OptionErrorClass.INVALID_OPTION_VALUE,
          "rate option numPartitions must be >= 1, was " + numPartitions);
    }
    if (rowsPerSecond < 0) {
      throw new LakestreamException(
          OptionErrorClass.INVALID_OPTION_VALUE,
          "rate option rowsPerSecond must be >= 0 (0 = unlimited), was " + rowsPerSecond);
    }
    if (maxRowsPerTrigger < 0) {
      throw new LakestreamException(
          OptionErrorClass.INVALID_OPTION_VALUE,
          "rate option maxRowsPerTrigger must be >= 0 (0 = unlimited), was " + maxRowsPerTrigger);
    }
  }

  public SequenceSource<T> build() {
    sanityCheck();
    return new SequenceSource<>(
        name, generator, type, rows, numPartitions, rowsPerSecond, maxRowsPerTrigger, query);
  }
}
