package io.lakestream.connectors.rate;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * Rate-style test sources (Spark's {@code rate} source): a fixed number of rows at a fixed rate,
 * checkpointed by position so a restore resumes exactly where the last checkpoint left off.
 */
public final class RateSources {
  private RateSources() {}

  /**
   * @param generator builds record {@code i}
   * @param rows how many rows in total; the source ends after them
   * @param rowsPerSecond rate across all parallel readers
   */
  public static DataGeneratorSource<String> strings(
      GeneratorFunction<Long, String> generator, long rows, long rowsPerSecond) {
    if (rows < 0 || rowsPerSecond <= 0) {
      throw new IllegalArgumentException(
          "rows must be >= 0 and rowsPerSecond > 0, were " + rows + " and " + rowsPerSecond);
    }
    return new DataGeneratorSource<>(
        generator, rows, RateLimiterStrategy.perSecond(rowsPerSecond), Types.STRING);
  }
}
