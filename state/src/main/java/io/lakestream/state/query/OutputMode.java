package io.lakestream.state.query;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.StateErrorClass;
import java.util.Locale;

/** Structured Streaming's output modes: what a sink receives each epoch. */
@PublicEvolving
public enum OutputMode {
  /** Only new, final rows (default). */
  APPEND,
  /** Rows changed in the epoch, as upserts. */
  UPDATE,
  /** The whole result every epoch. */
  COMPLETE;

  /** Parses {@code append}, {@code update} or {@code complete}, case-insensitively. */
  public static OutputMode parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new LakestreamException(
          StateErrorClass.INVALID_OUTPUT_MODE,
          "unknown output mode '" + text + "'; valid: append, update, complete");
    }
  }
}
