package io.lakestream.operators.watermark;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import java.util.Locale;

/**
 * How the watermarks of several inputs combine, as Structured Streaming's {@code
 * spark.sql.streaming.multipleWatermarkPolicy}.
 */
@PublicEvolving
public enum MultipleWatermarkPolicy {
  /**
   * The slowest input sets the watermark (default): no input's rows become late because another
   * input is ahead. An idle input is left out until it produces rows again.
   */
  MIN,
  /**
   * The fastest input sets the watermark: results come sooner, but rows of a slower input that are
   * behind it are late and dropped by downstream stateful operators.
   */
  MAX;

  /** Parses {@code min} or {@code max}, case-insensitively. */
  public static MultipleWatermarkPolicy parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WATERMARK,
          "unknown multipleWatermarkPolicy '" + text + "'; valid: min, max");
    }
  }
}
